import Foundation
import QPlayTestSupport
import Testing

/// A client that pipelines requests and never reads the answers costs the daemon a
/// bounded buffer, not memory in proportion to what it sends; others are served all the
/// while, and the memory is handed back once it leaves.
@Suite("End to end: a client that never reads", .timeLimit(.minutes(2)))
struct NonReadingClientTests {
    /// Growth allowed while the client is stuck: the write buffer's 2 MiB high-water
    /// mark, one read of input and the allocator's slack. Without backpressure 200,000
    /// status answers take ~130 MB.
    static let growthBound = 20 << 20
    /// How close to the start resident memory must come back after the client left.
    static let returnBound = 4 << 20

    @Test(arguments: [
        #"{"id":1,"cmd":"status"}"#,
        #"{"id":2,"cmd":"search","args":{"where":[]}}"#,
    ])
    func pipelinedRequestsCostABoundedBuffer(request: String) throws {
        try withDaemon { daemon in
            let control = try daemon.client()
            for _ in 0..<200 { _ = try control.status() }  // warm: the first answers allocate for good
            let before = try residentBytes(of: daemon.pid)

            var hostile: NonReadingClient? = try NonReadingClient(path: daemon.socketPath)
            let sent = hostile!.pipeline(request, count: 200_000, stall: 2)
            #expect(sent < 200_000, "the daemon stopped reading once the unread answers piled up")
            #expect(sent > 100, "the daemon read and answered requests first")
            let stuck = try residentBytes(of: daemon.pid)
            #expect(
                stuck - before < Self.growthBound,
                "RSS \(before / 1024) kB → \(stuck / 1024) kB after \(sent) unread requests")
            let status = try control.status()
            #expect(status["state"] as? String == "stopped")
            #expect(daemon.isRunning)

            hostile = nil  // closes it
            var after = stuck
            try waitUntil("memory returns after the client left", limit: 10) {
                after = try residentBytes(of: daemon.pid)
                return after - before < Self.returnBound
            }
            #expect(try control.status()["state"] as? String == "stopped")
            print("RSS \(before / 1024) kB at start, \(stuck / 1024) kB with \(sent) unread `\(request)` requests, \(after / 1024) kB after")
        }
    }
}
