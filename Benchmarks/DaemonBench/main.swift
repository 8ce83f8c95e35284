// qplay-bench-daemon: the measuring driver of scripts/bench-lib/daemon. It speaks both
// qplay's JSON Lines and MPD's text protocol over raw POSIX Unix sockets, so the two
// daemons are timed by the same code; it depends on none of qplay's modules.
//
//   qplay-bench-daemon rtt qplay|mpd SOCKET CLIENTS REQUESTS
//       CLIENTS connections at once, each sending REQUESTS `status` one after another
//       (after a warm-up); prints the round-trip percentiles over all of them.
//   qplay-bench-daemon rtt-turns REQUESTS qplay|mpd SOCKET [qplay|mpd SOCKET]...
//       one connection to each daemon; REQUESTS `status` to each, taking turns request
//       by request (after a warm-up); prints {"commands": [one summary each]}.
//   qplay-bench-daemon spawn COUNT PROGRAM [ARGS...] [--and PROGRAM [ARGS...]]...
//       runs PROGRAM COUNT times (posix_spawnp, output to /dev/null, after a warm-up),
//       each to its exit; prints the wall time of the whole process. With `--and`, the
//       programs take turns and the answer is {"commands": [one summary each]}.
//   qplay-bench-daemon startup COUNT qplay|mpd SOCKET PROGRAM [ARGS...]
//       COUNT times: starts the daemon, polls its socket until a `ping` is answered
//       (the time from spawn to that answer is the sample), then stops it with SIGTERM
//       and waits for it to exit.
//   qplay-bench-daemon search qplay|mpd SOCKET SAMPLES WORD [WORD...]
//       One connection: times the first title-contains search for the first WORD on its
//       own (qplayd loads its search table at the first query after start-up), warms up
//       with a few searches of every WORD, then times up to SAMPLES searches per WORD
//       (at least 20; no more once 4 s are spent on a word). The sample ends when the
//       whole answer is in (qplay: its line; MPD: its `OK`); counting the tracks is not timed.
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
    print(summary(samples, unit: unit, extra: extra))
}

func summary(_ samples: [Double], unit: String, extra: [(String, String)] = []) -> String {
    let sorted = samples.sorted()
    let mean = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)
    var fields = [
        ("count", "\(sorted.count)"), ("mean_\(unit)", format(mean)), ("p50_\(unit)", format(percentile(sorted, 50))),
        ("p99_\(unit)", format(percentile(sorted, 99))), ("min_\(unit)", format(sorted.first ?? 0)),
        ("max_\(unit)", format(sorted.last ?? 0)),
    ]
    fields += extra
    return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
}

/// `text` as a JSON string literal (the words here are plain, but a quote would break the output).
func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

// MARK: A blocking protocol connection

/// What a connection asks; each dialect spells it its own way.
enum Request {
    case ping, status
    case titleContains(String)

    func line(_ dialect: Dialect, id: Int) -> String {
        switch (self, dialect) {
        case (.ping, .qplay): return "{\"id\":\(id),\"cmd\":\"ping\"}\n"
        case (.status, .qplay): return "{\"id\":\(id),\"cmd\":\"status\"}\n"
        case (.titleContains(let word), .qplay):
            return "{\"id\":\(id),\"cmd\":\"search\",\"args\":{\"where\":"
                + "[{\"property\":\"title\",\"op\":\"contains\",\"value\":\(jsonString(word))}]}}\n"
        case (.ping, .mpd): return "ping\n"
        case (.status, .mpd): return "status\n"
        case (.titleContains(let word), .mpd): return "search title \(jsonString(word))\n"
        }
    }
}

/// One client connection speaking either dialect; requests go one at a time.
final class Connection {
    let descriptor: Int32
    let dialect: Dialect
    /// Received bytes; those before `head` are consumed. Lines are found with memchr and
    /// read in place, so a 2 MB answer (or 100,000 short MPD lines) costs linear time.
    private var buffer: [UInt8] = []
    private var head = 0
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var nextID = 1
    /// When the last answer was complete in the buffer (monotonic ns): stamped before its
    /// tracks are counted (qplay), or when MPD's `OK` line is found.
    private(set) var answeredAt: UInt64 = 0

    /// Connects and reads the greeting; nil while nothing listens yet.
    init?(path: String, dialect: Dialect) throws {
        self.dialect = dialect
        buffer.reserveCapacity(1 << 16)
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
        let greeting = try nextLine { Array($0) }
        switch dialect {
        case .qplay:
            guard greeting.starts(with: Array(#"{"#.utf8)) else { throw BenchFailure("no qplay greeting") }
        case .mpd:
            guard greeting.starts(with: Array("OK MPD".utf8)) else { throw BenchFailure("no MPD greeting") }
        }
    }

    deinit { close(descriptor) }

    /// Sends `request` and waits for the whole answer (see `answeredAt`). Returns how many
    /// tracks it lists: qplay's `"path":` keys (counted after the stamp), MPD's `file:` lines.
    @discardableResult
    func request(_ request: Request) throws -> Int {
        try send(Array(request.line(dialect, id: nextID).utf8))
        nextID += 1
        switch dialect {
        case .qplay:
            return try nextLine { reply in
                answeredAt = monotonicNanoseconds()
                guard Self.occurrences(of: #""ok":true"#, in: reply, stopAfterFirst: true) == 1 else {
                    throw BenchFailure("qplay refused \(request): \(String(decoding: reply, as: UTF8.self))")
                }
                return Self.occurrences(of: #""path":""#, in: reply, stopAfterFirst: false)
            }
        case .mpd:
            let file = Array("file: ".utf8)
            var tracks = 0
            while true {
                let done = try nextLine { reply -> Bool in
                    if reply.count == 2 && reply[0] == UInt8(ascii: "O") && reply[1] == UInt8(ascii: "K") {
                        answeredAt = monotonicNanoseconds()
                        return true
                    }
                    if reply.starts(with: file) {
                        tracks += 1
                    } else if reply.starts(with: "ACK".utf8) {
                        throw BenchFailure("MPD refused \(request): \(String(decoding: reply, as: UTF8.self))")
                    }
                    return false
                }
                if done { return tracks }
            }
        }
    }

    /// Non-overlapping occurrences of `needle` in `text` (first bytes found with memchr).
    private static func occurrences(of needle: String, in text: UnsafeBufferPointer<UInt8>, stopAfterFirst: Bool) -> Int {
        let needle = Array(needle.utf8)
        guard let base = text.baseAddress, text.count >= needle.count else { return 0 }
        var found = 0
        var offset = 0
        while offset <= text.count - needle.count {
            guard let hit = memchr(base + offset, Int32(needle[0]), text.count - needle.count + 1 - offset) else { break }
            let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if UnsafeBufferPointer(rebasing: text[at..<(at + needle.count)]).elementsEqual(needle) {
                found += 1
                if stopAfterFirst { break }
                offset = at + needle.count
            } else {
                offset = at + 1
            }
        }
        return found
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

    /// Calls `body` with the next line, without its newline, in place (valid during the call).
    private func nextLine<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) throws -> Result {
        var searched = head
        while true {
            let newline: Int? = buffer.withUnsafeBufferPointer { all in
                guard searched < all.count, let base = all.baseAddress,
                    let hit = memchr(base + searched, 10, all.count - searched)
                else { return nil }
                return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            }
            if let newline {
                let result = try buffer.withUnsafeBufferPointer {
                    try body(UnsafeBufferPointer(rebasing: $0[head..<newline]))
                }
                head = newline + 1
                if head == buffer.count {
                    buffer.removeAll(keepingCapacity: true)
                    head = 0
                }
                return result
            }
            // Only a partial line is left: move it to the front (once) and read more.
            if head > 0 {
                buffer.removeSubrange(..<head)
                head = 0
            }
            searched = buffer.count
            let received = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if received < 0 {
                if errno == EINTR { continue }
                throw BenchFailure("recv: \(String(cString: strerror(errno)))")
            }
            if received == 0 { throw BenchFailure("the daemon closed the connection") }
            buffer.append(contentsOf: chunk[..<received])
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
            for _ in 0..<warmUp { try connection?.request(.status) }
        } catch {
            failure = "\(error)"
        }
        // Every client is connected and warm before any is timed.
        pthread_barrier_wait(gate)
        guard let connection, failure == nil else { return }
        do {
            for _ in 0..<requests {
                let start = monotonicNanoseconds()
                try connection.request(.status)
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

/// One connection to each daemon, one `status` to each in turn (A B A B ...), so that
/// load on a shared machine falls on both alike; after a warm-up on each.
func roundTripsInTurn(requests: Int, targets: [(dialect: Dialect, path: String)]) throws {
    let connections = try targets.map { target in
        guard let connection = try Connection(path: target.path, dialect: target.dialect) else {
            throw BenchFailure("nothing listens on \(target.path)")
        }
        return connection
    }
    for _ in 0..<200 {
        for connection in connections { try connection.request(.status) }
    }
    var samples = Array(repeating: [Double](), count: connections.count)
    for _ in 0..<requests {
        for (index, connection) in connections.enumerated() {
            let start = monotonicNanoseconds()
            try connection.request(.status)
            samples[index].append(Double(monotonicNanoseconds() - start) / 1000)
        }
    }
    print("{\"commands\": [" + samples.map { summary($0, unit: "us") }.joined(separator: ", ") + "]}")
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

/// Runs every command COUNT times, taking turns (A B A B ...), so that load on a shared
/// machine falls on all of them alike.
func spawnLoop(count: Int, commands: [[String]]) throws {
    func runOnce(_ arguments: [String]) throws -> Double {
        let start = monotonicNanoseconds()
        let code = try waitExit(try spawnProcess(arguments, quiet: true))
        guard code == 0 else { throw BenchFailure("\(arguments.joined(separator: " ")) exited \(code)") }
        return Double(monotonicNanoseconds() - start) / 1e6
    }
    for _ in 0..<max(3, count / 20) {
        for command in commands { _ = try runOnce(command) }
    }
    var samples = Array(repeating: [Double](), count: commands.count)
    for _ in 0..<count {
        for (index, command) in commands.enumerated() { samples[index].append(try runOnce(command)) }
    }
    if samples.count == 1 {
        printSummary(samples[0], unit: "ms")
    } else {
        print("{\"commands\": [" + samples.map { summary($0, unit: "ms") }.joined(separator: ", ") + "]}")
    }
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
                try connection.request(.ping)
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

// MARK: search

/// One word's timed searches.
struct WordSearch {
    var word: String
    var samples: [Double] = []
    var tracks = 0
}

func searches(path: String, dialect: Dialect, samples: Int, words: [String]) throws {
    guard let connection = try Connection(path: path, dialect: dialect) else {
        throw BenchFailure("nothing listens on \(path)")
    }
    func timed(_ word: String) throws -> (milliseconds: Double, tracks: Int) {
        let start = monotonicNanoseconds()
        let tracks = try connection.request(.titleContains(word))
        return (Double(connection.answeredAt - start) / 1e6, tracks)
    }
    let firstWord = words[0]
    let first = try timed(firstWord)
    for _ in 0..<3 {
        for word in words { _ = try timed(word) }
    }
    var results: [WordSearch] = []
    for word in words {
        var result = WordSearch(word: word)
        let budgetEnd = monotonicNanoseconds() + 4_000_000_000
        while result.samples.count < samples && (result.samples.count < 20 || monotonicNanoseconds() < budgetEnd) {
            let sample = try timed(word)
            result.samples.append(sample.milliseconds)
            result.tracks = sample.tracks
        }
        results.append(result)
    }
    let summaries = results.map {
        summary($0.samples, unit: "ms", extra: [("word", jsonString($0.word)), ("tracks", "\($0.tracks)")])
    }
    print("{\"first_word\": \(jsonString(firstWord)), "
        + "\"first_ms\": \(format(first.milliseconds)), \"first_tracks\": \(first.tracks), "
        + "\"words\": [\(summaries.joined(separator: ", "))]}")
}

// MARK: main

func writeError(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

func usage() -> Never {
    let text = """
        usage: qplay-bench-daemon rtt qplay|mpd SOCKET CLIENTS REQUESTS
               qplay-bench-daemon rtt-turns REQUESTS qplay|mpd SOCKET [qplay|mpd SOCKET]...
               qplay-bench-daemon spawn COUNT PROGRAM [ARGS...] [--and PROGRAM [ARGS...]]...
               qplay-bench-daemon startup COUNT qplay|mpd SOCKET PROGRAM [ARGS...]
               qplay-bench-daemon search qplay|mpd SOCKET SAMPLES WORD [WORD...]

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
    case "rtt-turns":
        guard arguments.count >= 4, arguments.count % 2 == 0, let requests = Int(arguments[1]), requests > 0
        else { usage() }
        var targets: [(dialect: Dialect, path: String)] = []
        for index in stride(from: 2, to: arguments.count, by: 2) {
            guard let dialect = Dialect(rawValue: arguments[index]) else { usage() }
            targets.append((dialect, arguments[index + 1]))
        }
        try roundTripsInTurn(requests: requests, targets: targets)
    case "spawn":
        guard arguments.count >= 3, let count = Int(arguments[1]), count > 0 else { usage() }
        let commands = arguments[2...].split(separator: "--and", omittingEmptySubsequences: false).map(Array.init)
        guard commands.allSatisfy({ !$0.isEmpty }) else { usage() }
        try spawnLoop(count: count, commands: commands)
    case "startup":
        guard arguments.count >= 5, let count = Int(arguments[1]), count > 0,
            let dialect = Dialect(rawValue: arguments[2])
        else { usage() }
        try startUp(count: count, path: arguments[3], dialect: dialect, arguments: Array(arguments[4...]))
    case "search":
        guard arguments.count >= 5, let dialect = Dialect(rawValue: arguments[1]),
            let samples = Int(arguments[3]), samples > 0
        else { usage() }
        try searches(path: arguments[2], dialect: dialect, samples: samples, words: Array(arguments[4...]))
    default:
        usage()
    }
} catch {
    writeError("qplay-bench-daemon: \(error)\n")
    exit(1)
}
