// qplay-bench-daemon: the measuring driver of scripts/bench-lib/daemon and
// scripts/bench-lib/mpd. It speaks both qplay's JSON Lines and MPD's text protocol over
// raw POSIX sockets, so the daemons are timed by the same code; it depends on none of
// qplay's modules. SOCKET is a Unix socket path, or HOST:PORT for TCP.
//
//   qplay-bench-daemon rtt qplay|mpd SOCKET CLIENTS REQUESTS [--send LINE] [--warm-up N] [--pid PID]
//       CLIENTS connections at once, each sending REQUESTS `status` (or LINE as given)
//       one after another, after N (200) each to warm up; prints the round-trip
//       percentiles over all of them, and with --pid the daemon's CPU time (user +
//       system, /proc/PID/stat) per timed request.
//   qplay-bench-daemon idle SOCKET SAMPLES
//       MPD's `idle player` on one connection, `next` on another: the time from sending
//       `next` until the idle answer is in, SAMPLES times (see IdleWakeUps.swift).
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
    /// A request line sent as given (the MPD bench's `search`, `playlistinfo`, ...).
    case raw(String)

    func line(_ dialect: Dialect, id: Int) -> String {
        switch (self, dialect) {
        case (.raw(let text), _): return text + "\n"
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
    init?(address: String, dialect: Dialect) throws {
        self.dialect = dialect
        buffer.reserveCapacity(1 << 16)
        guard let descriptor = try Endpoint(address).connect() else { return nil }
        self.descriptor = descriptor
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
        try begin(request)
        return try answer(to: request)
    }

    /// Sends `request` without waiting for its answer (`idle`, whose answer comes later).
    func begin(_ request: Request) throws {
        try send(Array(request.line(dialect, id: nextID).utf8))
        nextID += 1
    }

    /// Waits for the whole answer to `request` (see `answeredAt`); counts its tracks, or
    /// for MPD the lines that start with `counting`.
    func answer(to request: Request, counting: String = "file: ") throws -> Int {
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
            let file = Array(counting.utf8)
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

    /// Whether an answer has begun to arrive, waiting at most `milliseconds` for it.
    func hasInput(withinMilliseconds milliseconds: Int32) throws -> Bool {
        if head < buffer.count { return true }
        var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&watched, 1, milliseconds)
            if ready >= 0 { return ready > 0 }
            guard errno == EINTR else { throw BenchFailure("poll: \(String(cString: strerror(errno)))") }
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
    let request: Request
    let requests: Int
    let warmUp: Int
    let gate: UnsafeMutablePointer<pthread_barrier_t>
    /// Called by one thread once every client is connected and warm, before any is timed.
    let atStart: () -> Void
    var samples: [Double] = []
    var failure: String?
    /// Opened before the threads start, one after another: MPD listens with a backlog of
    /// 5, and a burst of 32 connects overflows it, leaving clients that wait for a
    /// greeting that never comes. Kept open until the caller has read the daemon's CPU
    /// time, so that closing the connections is not counted as the requests' work.
    var connection: Connection?

    init(
        request: Request, requests: Int, warmUp: Int, gate: UnsafeMutablePointer<pthread_barrier_t>,
        atStart: @escaping () -> Void
    ) {
        self.request = request
        self.requests = requests
        self.warmUp = warmUp
        self.gate = gate
        self.atStart = atStart
        samples.reserveCapacity(requests)
    }

    func run() {
        do {
            for _ in 0..<warmUp { try connection?.request(request) }
        } catch {
            failure = "\(error)"
        }
        // Every client is connected and warm before any is timed.
        if pthread_barrier_wait(gate) == PTHREAD_BARRIER_SERIAL_THREAD { atStart() }
        pthread_barrier_wait(gate)
        guard let connection, failure == nil else { return }
        do {
            for _ in 0..<requests {
                let start = monotonicNanoseconds()
                try connection.request(request)
                samples.append(Double(monotonicNanoseconds() - start) / 1000)
            }
        } catch {
            failure = "\(error)"
        }
    }
}

/// Options of `rtt` after its positional arguments.
struct RoundTripOptions {
    var request = Request.status
    var warmUp = 200
    /// The daemon's process id: when given, its CPU time per request is reported too.
    var pid: Int32?
}

/// Start time and the daemon's CPU reading, set by the thread that passes the gate first.
final class RoundTripStart: @unchecked Sendable {
    var nanoseconds: UInt64 = 0
    var cpuTicks: UInt64 = 0
    var failure: String?
}

func roundTrips(address: String, dialect: Dialect, clients: Int, requests: Int, options: RoundTripOptions) throws {
    let gate = UnsafeMutablePointer<pthread_barrier_t>.allocate(capacity: 1)
    pthread_barrier_init(gate, nil, UInt32(clients))
    defer {
        pthread_barrier_destroy(gate)
        gate.deallocate()
    }
    let cpu = options.pid.map(ProcessCPU.init(pid:))
    let start = RoundTripStart()
    let atStart = {
        do { start.cpuTicks = try cpu?.ticks() ?? 0 } catch { start.failure = "\(error)" }
        start.nanoseconds = monotonicNanoseconds()
    }
    let runs = (0..<clients).map { _ in
        ClientRun(request: options.request, requests: requests, warmUp: options.warmUp, gate: gate, atStart: atStart)
    }
    for run in runs {
        guard let connection = try Connection(address: address, dialect: dialect) else {
            throw BenchFailure("nothing listens on \(address)")
        }
        run.connection = connection
    }
    var threads: [pthread_t] = []
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
    let seconds = Double(monotonicNanoseconds() - start.nanoseconds) / 1e9
    let endTicks = try cpu?.ticks()
    for run in runs { run.connection = nil }
    if let failure = runs.compactMap(\.failure).first ?? start.failure { throw BenchFailure(failure) }
    let samples = runs.flatMap(\.samples)
    var extra = [("clients", "\(clients)"), ("requests_per_second", format(Double(samples.count) / seconds))]
    if let endTicks {
        extra.append(("cpu_ticks", "\(endTicks - start.cpuTicks)"))
        extra.append((
            "cpu_us_per_request",
            format(ProcessCPU.microsecondsPerRequest(from: start.cpuTicks, to: endTicks, requests: samples.count))
        ))
    }
    printSummary(samples, unit: "us", extra: extra)
}

/// One connection to each daemon, one `status` to each in turn (A B A B ...), so that
/// load on a shared machine falls on both alike; after a warm-up on each.
func roundTripsInTurn(requests: Int, targets: [(dialect: Dialect, path: String)]) throws {
    let connections = try targets.map { target in
        guard let connection = try Connection(address: target.path, dialect: target.dialect) else {
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
            if let connection = try Connection(address: path, dialect: dialect) {
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
    guard let connection = try Connection(address: path, dialect: dialect) else {
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
        usage: qplay-bench-daemon rtt qplay|mpd SOCKET CLIENTS REQUESTS [--send LINE] [--warm-up N] [--pid PID]
               qplay-bench-daemon idle SOCKET SAMPLES
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
        guard arguments.count >= 5, let dialect = Dialect(rawValue: arguments[1]),
            let clients = Int(arguments[3]), let requests = Int(arguments[4]), clients > 0, requests > 0
        else { usage() }
        var options = RoundTripOptions()
        var rest = arguments[5...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { usage() }
            switch flag {
            case "--send": options.request = .raw(value)
            case "--warm-up":
                guard let count = Int(value), count >= 0 else { usage() }
                options.warmUp = count
            case "--pid":
                guard let pid = Int32(value), pid > 0 else { usage() }
                options.pid = pid
            default: usage()
            }
        }
        try roundTrips(address: arguments[2], dialect: dialect, clients: clients, requests: requests, options: options)
    case "idle":
        guard arguments.count == 3, let samples = Int(arguments[2]), samples > 0 else { usage() }
        try idleWakeUps(address: arguments[1], samples: samples)
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
