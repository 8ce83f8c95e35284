// qplay-bench-daemon: the measuring driver of scripts/bench-lib/daemon. It speaks both
// qplay's JSON Lines and MPD's text protocol over raw POSIX Unix sockets, so the two
// daemons are timed by the same code; it depends on none of qplay's modules.
//
//   qplay-bench-daemon rtt qplay|mpd SOCKET CLIENTS REQUESTS
//       CLIENTS connections at once, each sending REQUESTS `status` one after another
//       (after a warm-up); prints the round-trip percentiles over all of them.
//   qplay-bench-daemon spawn COUNT PROGRAM [ARGS...]
//       runs PROGRAM COUNT times (posix_spawnp, output to /dev/null, after a warm-up),
//       each to its exit; prints the wall time of the whole process.
//   qplay-bench-daemon startup COUNT qplay|mpd SOCKET PROGRAM [ARGS...]
//       COUNT times: starts the daemon, polls its socket until a `ping` is answered
//       (the time from spawn to that answer is the sample), then stops it with SIGTERM
//       and waits for it to exit.
//
// Each prints one JSON object on stdout. Run it from a release build.
#if canImport(Glibc)
import Glibc
#endif

enum Dialect: String {
    case qplay, mpd
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

// MARK: Time

func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

func sleepMicroseconds(_ microseconds: Int) {
    var time = timespec(tv_sec: microseconds / 1_000_000, tv_nsec: (microseconds % 1_000_000) * 1000)
    var remaining = timespec()
    while nanosleep(&time, &remaining) != 0 && errno == EINTR { time = remaining }
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

func format(_ value: Double) -> String {
    let scaled = (value * 1000).rounded() / 1000
    return "\(scaled)"
}

func printSummary(_ samples: [Double], unit: String, extra: [(String, String)] = []) {
    let sorted = samples.sorted()
    let mean = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)
    var fields = [
        ("count", "\(sorted.count)"), ("mean_\(unit)", format(mean)), ("p50_\(unit)", format(percentile(sorted, 50))),
        ("p99_\(unit)", format(percentile(sorted, 99))), ("min_\(unit)", format(sorted.first ?? 0)),
        ("max_\(unit)", format(sorted.last ?? 0)),
    ]
    fields += extra
    print("{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
}

// MARK: A blocking protocol connection

/// One client connection speaking either dialect; requests go one at a time.
final class Connection {
    let descriptor: Int32
    let dialect: Dialect
    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var nextID = 1

    /// Connects and reads the greeting; nil while nothing listens yet.
    init?(path: String, dialect: Dialect) throws {
        self.dialect = dialect
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw BenchFailure("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(descriptor)
            throw BenchFailure("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if connected != 0 {
            let code = errno
            close(descriptor)
            if code == ENOENT || code == ECONNREFUSED { return nil }
            throw BenchFailure("connect \(path): \(String(cString: strerror(code)))")
        }
        let greeting = try readLine()
        switch dialect {
        case .qplay:
            guard greeting.starts(with: Array(#"{"#.utf8)) else { throw BenchFailure("no qplay greeting") }
        case .mpd:
            guard greeting.starts(with: Array("OK MPD".utf8)) else { throw BenchFailure("no MPD greeting") }
        }
    }

    deinit { close(descriptor) }

    /// Sends `command` (`status`, `ping`) and waits for the whole answer.
    func request(_ command: String) throws {
        let line: String
        switch dialect {
        case .qplay:
            line = "{\"id\":\(nextID),\"cmd\":\"\(command)\"}\n"
            nextID += 1
        case .mpd:
            line = command + "\n"
        }
        try send(Array(line.utf8))
        switch dialect {
        case .qplay:
            let reply = try readLine()
            guard containsOK(reply) else {
                throw BenchFailure("qplay refused \(command): \(String(decoding: reply, as: UTF8.self))")
            }
        case .mpd:
            while true {
                let reply = try readLine()
                if reply.elementsEqual("OK".utf8) { return }
                if reply.starts(with: Array("ACK".utf8)) {
                    throw BenchFailure("MPD refused \(command): \(String(decoding: reply, as: UTF8.self))")
                }
            }
        }
    }

    private func containsOK(_ line: [UInt8]) -> Bool {
        let needle = Array(#""ok":true"#.utf8)
        guard line.count >= needle.count else { return false }
        for start in 0...(line.count - needle.count) where line[start] == needle[0] {
            if line[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    private func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw BenchFailure("send: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    /// The next line without its newline.
    private func readLine() throws -> [UInt8] {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                throw BenchFailure("recv: \(String(cString: strerror(errno)))")
            }
            if count == 0 { throw BenchFailure("the daemon closed the connection") }
            buffer.append(contentsOf: chunk[..<count])
        }
    }
}

// MARK: rtt

/// A thread's work and its results; the thread owns it until joined.
final class ClientRun: @unchecked Sendable {
    let path: String
    let dialect: Dialect
    let requests: Int
    let warmUp: Int
    let gate: UnsafeMutablePointer<pthread_barrier_t>
    var samples: [Double] = []
    var failure: String?

    init(path: String, dialect: Dialect, requests: Int, warmUp: Int, gate: UnsafeMutablePointer<pthread_barrier_t>) {
        self.path = path
        self.dialect = dialect
        self.requests = requests
        self.warmUp = warmUp
        self.gate = gate
        samples.reserveCapacity(requests)
    }

    func run() {
        var connection: Connection?
        do {
            connection = try Connection(path: path, dialect: dialect)
            if connection == nil { failure = "nothing listens on \(path)" }
            for _ in 0..<warmUp { try connection?.request("status") }
        } catch {
            failure = "\(error)"
        }
        // Every client is connected and warm before any is timed.
        pthread_barrier_wait(gate)
        guard let connection, failure == nil else { return }
        do {
            for _ in 0..<requests {
                let start = monotonicNanoseconds()
                try connection.request("status")
                samples.append(Double(monotonicNanoseconds() - start) / 1000)
            }
        } catch {
            failure = "\(error)"
        }
    }
}

func roundTrips(path: String, dialect: Dialect, clients: Int, requests: Int) throws {
    let gate = UnsafeMutablePointer<pthread_barrier_t>.allocate(capacity: 1)
    pthread_barrier_init(gate, nil, UInt32(clients))
    defer {
        pthread_barrier_destroy(gate)
        gate.deallocate()
    }
    let runs = (0..<clients).map { _ in
        ClientRun(path: path, dialect: dialect, requests: requests, warmUp: 200, gate: gate)
    }
    var threads: [pthread_t] = []
    let start = monotonicNanoseconds()
    for run in runs {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(run).toOpaque()
        let created = pthread_create(&thread, nil, { context in
            let run = Unmanaged<ClientRun>.fromOpaque(context!).takeRetainedValue()
            run.run()
            return nil
        }, context)
        guard created == 0 else { throw BenchFailure("pthread_create failed: \(created)") }
        threads.append(thread)
    }
    for thread in threads { pthread_join(thread, nil) }
    let seconds = Double(monotonicNanoseconds() - start) / 1e9
    if let failure = runs.compactMap(\.failure).first { throw BenchFailure(failure) }
    let samples = runs.flatMap(\.samples)
    printSummary(
        samples, unit: "us",
        extra: [("clients", "\(clients)"), ("requests_per_second", format(Double(samples.count) / seconds))])
}

// MARK: spawn / startup

func spawnProcess(_ arguments: [String], quiet: Bool) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if quiet {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }
    var argv = arguments.map { strdup($0) }
    argv.append(nil)
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let result = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
    guard result == 0 else { throw BenchFailure("cannot start \(arguments[0]): \(String(cString: strerror(result)))") }
    return pid
}

func waitExit(_ pid: pid_t) throws -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        guard errno == EINTR else { throw BenchFailure("waitpid: \(String(cString: strerror(errno)))") }
    }
    // WIFEXITED / WEXITSTATUS are macros Swift does not import.
    return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
}

func spawnLoop(count: Int, arguments: [String]) throws {
    for _ in 0..<max(3, count / 20) {
        let code = try waitExit(try spawnProcess(arguments, quiet: true))
        guard code == 0 else { throw BenchFailure("\(arguments.joined(separator: " ")) exited \(code)") }
    }
    var samples: [Double] = []
    for _ in 0..<count {
        let start = monotonicNanoseconds()
        let code = try waitExit(try spawnProcess(arguments, quiet: true))
        samples.append(Double(monotonicNanoseconds() - start) / 1e6)
        guard code == 0 else { throw BenchFailure("\(arguments.joined(separator: " ")) exited \(code)") }
    }
    printSummary(samples, unit: "ms")
}

/// Spawn to the first answered `ping`, then SIGTERM and wait for the exit (not timed).
func startUpOnce(path: String, dialect: Dialect, arguments: [String]) throws -> Double {
    let start = monotonicNanoseconds()
    let pid = try spawnProcess(arguments, quiet: true)
    while true {
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { throw BenchFailure("the daemon exited during start-up") }
        if Double(monotonicNanoseconds() - start) / 1e9 > 120 {
            kill(pid, SIGKILL)
            _ = try? waitExit(pid)
            throw BenchFailure("no answer within 120 s")
        }
        do {
            if let connection = try Connection(path: path, dialect: dialect) {
                try connection.request("ping")
                break
            }
        } catch {
            // A socket bound but not yet accepting, or closed under us: try again.
        }
        sleepMicroseconds(200)
    }
    let milliseconds = Double(monotonicNanoseconds() - start) / 1e6
    kill(pid, SIGTERM)
    _ = try waitExit(pid)
    return milliseconds
}

func startUp(count: Int, path: String, dialect: Dialect, arguments: [String]) throws {
    var samples: [Double] = []
    for _ in 0..<count {
        samples.append(try startUpOnce(path: path, dialect: dialect, arguments: arguments))
    }
    printSummary(samples, unit: "ms")
}

// MARK: main

func writeError(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

func usage() -> Never {
    let text = """
        usage: qplay-bench-daemon rtt qplay|mpd SOCKET CLIENTS REQUESTS
               qplay-bench-daemon spawn COUNT PROGRAM [ARGS...]
               qplay-bench-daemon startup COUNT qplay|mpd SOCKET PROGRAM [ARGS...]

        """
    writeError(text)
    exit(2)
}

signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "rtt":
        guard arguments.count == 5, let dialect = Dialect(rawValue: arguments[1]),
            let clients = Int(arguments[3]), let requests = Int(arguments[4]), clients > 0, requests > 0
        else { usage() }
        try roundTrips(path: arguments[2], dialect: dialect, clients: clients, requests: requests)
    case "spawn":
        guard arguments.count >= 3, let count = Int(arguments[1]), count > 0 else { usage() }
        try spawnLoop(count: count, arguments: Array(arguments[2...]))
    case "startup":
        guard arguments.count >= 5, let count = Int(arguments[1]), count > 0,
            let dialect = Dialect(rawValue: arguments[2])
        else { usage() }
        try startUp(count: count, path: arguments[3], dialect: dialect, arguments: Array(arguments[4...]))
    default:
        usage()
    }
} catch {
    writeError("qplay-bench-daemon: \(error)\n")
    exit(1)
}
