import Foundation
import QPlayTestSupport
import Testing

/// The queue rules (docs/BEHAVIOUR.md) through the real programs: `add` on an empty queue starts playing, a second
/// `add` appends and marks the queue modified, and the next track change installs it —
/// proved from the tones in the captured audio.
@Suite("End to end: the seed scenario", .timeLimit(.minutes(2)))
struct SeedScenarioTests {
    @Test func addPlaysThenAppendsAndTheAppendedTracksPlayInOrder() throws {
        do {
            try withDaemon { daemon in
                let control = try daemon.client()
                let events = try daemon.client()
                try events.ok("subscribe", ["events": ["player", "queue"]])

                let first = try daemon.qplay("add", "love")
                #expect(first.status == 0, "\(first.stderr)")
                #expect(first.stdout.contains("playing"))
                var status = try control.status()
                #expect(status["state"] as? String == "playing")
                #expect(title(status) == "Love Song")
                #expect(status["queue_modified"] as? Bool == false)
                try waitUntil("Love Song has played a second") { number(try control.status()["position"]) ?? 0 >= 1 }

                let second = try daemon.qplay("add", "--where", "album~day")
                #expect(second.status == 0, "\(second.stderr)")
                status = try daemon.qplayJSON("status")
                #expect(status["queue_modified"] as? Bool == true)
                #expect(status["queue_length"] as? Int == 5)
                #expect(title(status) == "Love Song", "appending does not interrupt the sound")
                let queue = try daemon.qplayJSON("queue")
                #expect(queue["modified"] as? Bool == true)
                let entries = try #require(queue["entries"] as? [[String: Any]])
                #expect(entries.map { ($0["track"] as? [String: Any])?["title"] as? String } == [
                    "Love Song", "Endless Love", "Love Theme", "Morning", "Evening",
                ])
                #expect(queue["current"] as? Int == entries[0]["entry"] as? Int)
                let listing = try daemon.qplayOK("queue")
                #expect(listing.contains("modified"), "\(listing)")
                #expect(listing.contains("▶ 1"), "\(listing)")

                // Let every track end on its own, from a second before its end.
                try control.ok("seek", ["position": 2.0])
                // The queue event of the install (the first `add` installed 3 entries at once).
                try events.event("queue") { $0["modified"] as? Bool == false && $0["length"] as? Int == 5 }
                for (next, duration) in [("Endless Love", 3.0), ("Love Theme", 3.0), ("Morning", 4.0), ("Evening", 4.0)] {
                    try events.event("player") { title($0) == next && $0["state"] as? String == "playing" }
                    status = try control.status()
                    #expect(status["queue_modified"] as? Bool == false)
                    try control.ok("seek", ["position": duration - 1.2])
                }
                let end = try events.event("player") { $0["state"] as? String == "stopped" }
                #expect(end["track"] is NSNull, "now-playing is empty after the last entry")
                #expect(end["queue_length"] as? Int == 5, "the queue stays")
                #expect(try daemon.qplayOK("queue").contains("modified") == false)

                let samples = try daemon.capturedSamples()
                #expect(ToneSequence.files(in: samples) == [
                    "Love Song", "Endless Love", "Love Theme", "Morning", "Evening",
                ].map(sampleFile(titled:)))
                #expect(ToneSequence.longestSilence(in: samples) < 441, "no gap of 10 ms or more")
            }
        }
    }
}
