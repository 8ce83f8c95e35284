#if canImport(Glibc)
import Glibc
#endif

/// A process's CPU time so far (all its threads, user + system) from /proc/PID/stat, in
/// clock ticks. Reading it before and after N requests gives the daemon's CPU per request,
/// a figure that holds better than latency on a shared, noisy machine.
struct ProcessCPU {
    let pid: Int32

    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    func ticks() throws -> UInt64 {
        guard let file = fopen("/proc/\(pid)/stat", "r") else {
            throw BenchFailure("cannot read /proc/\(pid)/stat: \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 4096)
        guard fgets(&line, Int32(line.count), file) != nil else { throw BenchFailure("/proc/\(pid)/stat is empty") }
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The command name (field 2) may hold blanks and parentheses: count from its last ')'.
        guard let close = text.lastIndex(of: ")") else { throw BenchFailure("unexpected /proc/\(pid)/stat") }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, utime field 14, stime field 15.
        guard fields.count > 12, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else {
            throw BenchFailure("unexpected /proc/\(pid)/stat")
        }
        return user + system
    }

    /// Microseconds of CPU per request between two readings.
    static func microsecondsPerRequest(from start: UInt64, to end: UInt64, requests: Int) -> Double {
        Double(end - start) / ticksPerSecond * 1e6 / Double(max(requests, 1))
    }
}
