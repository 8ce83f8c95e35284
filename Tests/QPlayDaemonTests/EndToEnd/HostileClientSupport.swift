import Foundation
import QPlayTestSupport

#if canImport(Glibc)
import Glibc
#endif

// Helpers for the tests of connection limits and hostile clients: a qplayd under a
// small open-file limit, a client that writes and never reads, and readings of a
// process's memory, CPU time and descriptors from /proc.

/// A qplayd started through `prlimit`, so that its open-file limit is small from its
/// first instruction on (prlimit execs it: the pid is the daemon's).
final class DescriptorLimitedDaemon {
    let daemon: DaemonProcess
    private let process: SpawnedProcess

    init(nofile: Int, config: String) throws {
        let daemon = DaemonProcess()
        self.daemon = daemon
        let log = open(daemon.logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard log >= 0 else { throw LineSocketClient.Failure(description: "cannot open \(daemon.logPath)") }
        defer { close(log) }
        let arguments =
            ["--nofile=\(nofile):\(nofile)", "--", BuiltProducts.url("qplayd").path]
            + daemon.standardArguments + ["--config", try daemon.writeConfig(config)]
        process = try SpawnedProcess(
            URL(fileURLWithPath: "/usr/bin/prlimit"), arguments, environment: daemon.environment,
            stdout: log, stderr: log)
        try waitUntil("qplayd answers on its socket", limit: 30) {
            guard process.isRunning else {
                throw LineSocketClient.Failure(description: "qplayd exited with \(process.wait()):\n\(daemon.log)")
            }
            guard let client = try? LineSocketClient(path: daemon.socketPath, timeoutSeconds: 2) else { return false }
            return (try? client.readLine()) != nil
        }
        try daemon.waitForLibrary()
    }

    var pid: Int32 { process.pid }
    var isRunning: Bool { process.isRunning }

    /// SIGTERM and the exit status.
    func stop() -> Int32 {
        process.signal(SIGTERM)
        return process.wait()
    }

    deinit {
        process.signal(SIGKILL)
        process.wait()
        daemon.directory.remove()
    }
}

/// The line a client past `max_connections` gets in place of the greeting.
func isRefusal(_ line: String, cap: Int) -> Bool {
    guard let object = try? parseObject(line), object["ok"] as? Bool == false, object["id"] is NSNull,
        let error = object["error"] as? [String: Any]
    else { return false }
    return error["code"] as? String == "unavailable"
        && error["message"] as? String == "too many connections (max_connections = \(cap)); try again later"
}

func isGreeting(_ line: String) -> Bool {
    (try? parseObject(line))?["protocol"] as? String == "qplay/1"
}

/// Resident memory of a process in bytes (VmRSS of /proc/PID/status).
func residentBytes(of pid: Int32) throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
    else { throw LineSocketClient.Failure(description: "no VmRSS in /proc/\(pid)/status") }
    return kilobytes * 1024
}

/// CPU time (user + system) a process has used, from /proc/PID/stat.
func cpuSeconds(of pid: Int32) throws -> Double {
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    // Fields after the command name, which is in parentheses and may hold spaces.
    let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
        throw LineSocketClient.Failure(description: "cannot read /proc/\(pid)/stat")
    }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

func openDescriptors(of pid: Int32) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
}

/// A client that writes and never reads: a non-blocking socket that sends as much as
/// the daemon takes.
final class NonReadingClient {
    let descriptor: Int32

    init(path: String) throws {
        // Stored only once connected: a throw after that would run deinit, closing it twice.
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let result = UnixSocketAddress.connect(descriptor, to: path)
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw LineSocketClient.Failure(description: "connect \(path): errno \(code)")
        }
        self.descriptor = descriptor
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// Sends `line` up to `count` times, pipelined, until the daemon stops taking bytes
    /// for `stall` seconds. Returns how many whole lines were sent (the last may be cut).
    func pipeline(_ line: String, count: Int, stall: Double) -> Int {
        let one = Array((line + "\n").utf8)
        let batch = Array(repeatElement(one, count: 512).joined())
        var sentBytes = 0
        let total = one.count * count
        var lastProgress = Date()
        while sentBytes < total {
            let offset = sentBytes % batch.count
            let length = min(batch.count - offset, total - sentBytes)
            let written = batch[offset..<(offset + length)].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                sentBytes += written
                lastProgress = Date()
                continue
            }
            guard written < 0, errno == EAGAIN || errno == EWOULDBLOCK else { break }
            if Date().timeIntervalSince(lastProgress) > stall { break }
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&poller, 1, 100)
        }
        return sentBytes / one.count
    }

    deinit {
        close(descriptor)
    }
}
