import Foundation
import QPlayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The unwritable timeout measures a lack of progress, not the time an answer takes: a
/// client reading a big `queue` answer slowly but steadily was cut after 30 s in all
/// (45.7 of 59.5 MB at 1.5 MB/s). With a 1 s timeout (`QPLAYD_UNWRITABLE_TIMEOUT`), a
/// reader taking several seconds over a few megabytes gets them all; one that stops
/// reading is still closed.
@Suite("End to end: the unwritable timeout restarts on progress", .serialized, .timeLimit(.minutes(3)))
struct UnwritableProgressTests {
    @Test func aSlowSteadyReaderGetsTheWholeAnswerAndAStoppedOneIsClosed() throws {
        try withDaemon(environment: ["QPLAYD_UNWRITABLE_TIMEOUT": "1"]) { daemon in
            let client = try daemon.client()
            for _ in 0..<500 {
                #expect(try client.request("add", ["where": [] as [Any]])["ok"] as? Bool == true)
            }
            let length = try #require(try client.request("status")["result"] as? [String: Any])["queue_length"] as? Int
            #expect((length ?? 0) >= 5000, "queue of \(length ?? 0)")

            // Reads 16 KiB, then pauses 40 ms: a few hundred KB/s, seconds in all, the
            // channel unwritable most of the time.
            let slow = try NonReadingClient(path: daemon.socketPath)
            let request = Array(#"{"id":7,"cmd":"queue"}"#.utf8) + [10]
            #expect(request.withUnsafeBytes { send(slow.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == request.count)
            let started = Date()
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 16 << 10)
            var newlines = 0
            var ended = false
            while newlines < 2 && !ended && Date().timeIntervalSince(started) < 120 {
                var poller = pollfd(fd: slow.descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 1000) > 0 else { continue }
                let count = chunk.withUnsafeMutableBytes { recv(slow.descriptor, $0.baseAddress, $0.count, 0) }
                if count <= 0 {
                    ended = true
                    break
                }
                received += chunk[..<count]
                newlines += chunk[..<count].count(where: { $0 == 10 })
                usleep(40_000)
            }
            let took = Date().timeIntervalSince(started)
            #expect(newlines == 2, "got \(received.count) bytes in \(took) s, then the connection ended:\n\(daemon.log)")
            let reply = received.split(separator: 10).dropFirst().first.map { Array($0) } ?? []
            let object = try JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any]
            let entries = (object?["result"] as? [String: Any])?["entries"] as? [Any]
            #expect(entries?.count == length, "\(reply.count) bytes, \(entries?.count ?? -1) entries")
            // Slow enough that the channel stayed unwritable past the timeout in all.
            #expect(took > 2, "read \(received.count) bytes in \(took) s")

            // A client that asks and reads nothing is still closed.
            let stopped = try NonReadingClient(path: daemon.socketPath)
            #expect(request.withUnsafeBytes { send(stopped.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == request.count)
            #expect(stopped.isClosedByPeer(within: 30), "\(daemon.log)")
            #expect(try client.request("ping")["ok"] as? Bool == true)
        }
    }
}
