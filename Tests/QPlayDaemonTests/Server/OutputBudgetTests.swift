import Foundation
import QPlayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Unread output is bounded in total, not only per connection: many clients that ask
/// for big answers and never read them cannot together hold more than the daemon's
/// budget. Past it the connections holding the most are closed; a client that reads is
/// served all the while.
/// Its 16 clients pipeline searches until the budget closes them: about 50 s alone on two
/// cores, and up to twice that beside the other end-to-end suites; the limit only
/// catches a hang.
@Suite("End to end: all clients' unread output is bounded", .serialized, .timeLimit(.minutes(4)))
struct OutputBudgetTests {
    /// Each connection is paused at 2 MiB of unread output (the write buffer's
    /// high-water mark); the budget lets three such hold theirs.
    static let budget = 6 << 20
    static let hostileCount = 16

    @Test func nonReadersPastTheBudgetAreClosedAndReadersServed() throws {
        let daemon = DaemonProcess()
        daemon.daemonEnvironment["QPLAYD_OUTPUT_BUDGET"] = "\(Self.budget)"
        try daemon.start()
        defer {
            daemon.stop()
            daemon.directory.remove()
        }
        try daemon.waitForLibrary()
        let reader = try daemon.client()
        _ = try reader.status()

        // Each asks for the whole library, again and again, and reads nothing: alone,
        // each would hold its 2 MiB until the 30 s unwritable timeout. All at once, so
        // the check below comes well before that timeout.
        let hostile = try (0..<Self.hostileCount).map { _ in try NonReadingClient(path: daemon.socketPath) }
        // Each thread uses its own client only.
        nonisolated(unsafe) let clients = hostile
        DispatchQueue.concurrentPerform(iterations: clients.count) { index in
            _ = clients[index].pipeline(#"{"id":2,"cmd":"search","args":{"where":[]}}"#, count: 100_000, stall: 2)
        }
        #expect(try reader.status()["state"] as? String == "stopped", "a reading client is answered")

        // Without the budget all of them would still be open (16 × 2 MiB unread). With
        // it, those left hold 6 MiB together: three at their 2 MiB high-water mark, more
        // only if some stopped short of it — never half of them.
        let open = hostile.filter { !$0.isClosedByPeer(within: 2) }.count
        #expect(open <= Self.hostileCount / 2, "\(open) of \(Self.hostileCount) non-readers still open")
        #expect(daemon.log.contains("closing the client with the most unread output"), "\(daemon.log)")
        #expect(try reader.status()["state"] as? String == "stopped")
        #expect(try daemon.client().status()["state"] as? String == "stopped", "new clients are served")
    }
}

/// POLLRDHUP (Linux), which Glibc's module does not export: the peer shut its side.
private let peerShutdown: Int16 = 0x2000

extension NonReadingClient {
    /// Whether the daemon closed the connection, told without reading what it sent
    /// (reading would make it a reader): the peer's shutdown shows in `poll`.
    func isClosedByPeer(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            var poller = pollfd(fd: descriptor, events: peerShutdown, revents: 0)
            if poll(&poller, 1, 50) > 0, poller.revents & (peerShutdown | Int16(POLLHUP)) != 0 { return true }
        } while Date() < deadline
        return false
    }
}
