import Foundation
import QPlayTestSupport
import Testing

/// docs/BEHAVIOUR.md, The daemon: the queue, the current entry, the position and the options survive a
/// `kill -9`; the daemon comes back paused.
@Suite("End to end: persistence across kill -9", .timeLimit(.minutes(2)))
struct PersistenceEndToEndTests {
    @Test func killNineAndRestartRestoresQueueEntryAndPositionPaused() throws {
        do {
            try withDaemon { daemon in
                try daemon.qplayOK("add", "--where", "album~day")
                try daemon.qplayOK("add", "love")
                let jumped = try daemon.qplayJSON("jump", "2")  // Evening; installs the queue
                #expect(title(jumped) == "Evening")
                try daemon.qplayOK("vol", "70")
                try daemon.qplayOK("repeat", "all")
                let control = try daemon.client()
                try waitUntil("Evening has played 1.5 s") { number(try control.status()["position"]) ?? 0 >= 1.5 }
                let queueBefore = try control.ok("queue")
                let before = try control.status()
                daemon.kill9()

                try daemon.start()
                let after = try daemon.qplayJSON("status")
                #expect(after["state"] as? String == "paused")
                #expect(after["entry"] as? Int == before["entry"] as? Int)
                #expect(title(after) == "Evening")
                let saved = try #require(number(before["position"]))
                let restored = try #require(number(after["position"]))
                #expect(abs(restored - saved) <= 2, "saved at \(saved) s, restored at \(restored) s")
                #expect(after["volume"] as? Int == 70)
                #expect(after["repeat"] as? String == "all")
                let queueAfter = try daemon.qplayJSON("queue")
                func ids(_ queue: [String: Any]) -> [Int] {
                    (queue["entries"] as? [[String: Any]] ?? []).compactMap { $0["entry"] as? Int }
                }
                #expect(ids(queueAfter) == ids(queueBefore))
                #expect(ids(queueAfter).count == 5)
                #expect(queueAfter["current"] as? Int == before["entry"] as? Int)

                // It plays on from there.
                let resumed = try daemon.qplayJSON("play")
                #expect(resumed["state"] as? String == "playing")
                #expect(abs((number(resumed["position"]) ?? -9) - restored) < 1)
            }
        }
    }
}
