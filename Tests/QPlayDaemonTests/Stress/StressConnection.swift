import Foundation
import QPlayTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Seconds on the monotonic clock: when lines arrived, how long visits played.
func monotonicSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// A line from the daemon and when it was read.
struct StampedLine {
    var text: String
    var at: Double
}

/// A protocol connection whose lines are read as they come by a thread of its own, each
/// stamped with its arrival time. The stress driver needs both: events and responses in
/// the one order the daemon wrote them (a single consumer), and the time each event came
/// (how long a track was said to play), which a reader that only looks when a step is
/// done could not give. Requests are written from the driver's thread.
final class StressConnection: @unchecked Sendable {
    private let client: LineSocketClient
    private let condition = NSCondition()
    private var lines: [StampedLine] = []
    private var ended: String?
    private var stopping = false
    private var nextID = 1

    init(path: String) throws {
        // A short receive timeout only lets the reader notice `close()`; it is no limit
        // on the daemon (a timeout just reads again).
        client = try LineSocketClient(path: path, timeoutSeconds: 1)
        _ = try client.readLine()  // the greeting
        let thread = Thread { [self] in readLoop() }
        thread.name = "stress-reader"
        thread.start()
    }

    private func readLoop() {
        while true {
            do {
                let text = try client.readLine()
                let at = monotonicSeconds()
                condition.lock()
                lines.append(StampedLine(text: text, at: at))
                condition.broadcast()
                condition.unlock()
            } catch {
                let message = "\(error)"
                condition.lock()
                let stop = stopping
                condition.unlock()
                if !stop, message.hasSuffix("errno \(EAGAIN)") || message.hasSuffix("errno \(EINTR)") { continue }
                condition.lock()
                ended = stop ? "closed by the test" : message
                condition.broadcast()
                condition.unlock()
                return
            }
        }
    }

    /// Writes a request and returns its id (ids count up per connection).
    @discardableResult
    func send(_ cmd: String, _ args: [String: Any]? = nil) throws -> Int {
        let id = nextID
        nextID += 1
        var object: [String: Any] = ["id": id, "cmd": cmd]
        if let args { object["args"] = args }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        try client.send(String(decoding: data, as: UTF8.self))
        return id
    }

    /// The next line, waiting until `deadline` (monotonic seconds); nil when none came by
    /// then. Throws when the connection ended.
    func nextLine(until deadline: Double) throws -> StampedLine? {
        condition.lock()
        defer { condition.unlock() }
        while lines.isEmpty {
            if let ended { throw LineSocketClient.Failure(description: "connection ended: \(ended)") }
            let left = deadline - monotonicSeconds()
            if left <= 0 { return nil }
            _ = condition.wait(until: Date().addingTimeInterval(left))
        }
        return lines.removeFirst()
    }

    /// Lines already read and not yet taken, without waiting.
    func takeAvailable() -> [StampedLine] {
        condition.lock()
        defer { condition.unlock() }
        let taken = lines
        lines = []
        return taken
    }

    /// Lets the reader thread end (within its one-second receive timeout).
    func close() {
        condition.lock()
        stopping = true
        condition.unlock()
    }
}
