import Foundation
import GRDB
import QPlayTestSupport
import Testing

/// Single and consume (MPD's modes, which MPD clients set) with the real daemon and
/// audio side: saved with the other options, shown in status, and what is heard. qplay's
/// own commands do not set them, so the tests set them in the state database of a
/// stopped daemon, as a restart would find them.
@Suite("End to end: single and consume", .timeLimit(.minutes(2)))
struct PlayModesEndToEndTests {
    /// Stops `daemon`, sets the modes in its state database and starts it again.
    private func restart(_ daemon: DaemonProcess, single: Bool, consume: Bool) throws {
        #expect(daemon.stop() == 0)
        let database = try DatabaseQueue(path: daemon.dataDirectory + "/state.sqlite")
        let updated = try database.write { db in
            try db.execute(
                sql: "UPDATE player_settings SET single = ?, consume = ?", arguments: [single, consume])
            return db.changesCount
        }
        try database.close()
        #expect(updated == 1)
        try daemon.start()
    }

    @Test func theModesAreSavedAndShownInStatusAndEvents() throws {
        try withDaemon { daemon in
            try daemon.qplayOK("add", "love")
            let before = try daemon.qplayJSON("status")
            #expect(before["single"] as? Bool == false)
            #expect(before["consume"] as? Bool == false)
            try restart(daemon, single: true, consume: true)

            let after = try daemon.qplayJSON("status")
            #expect(after["single"] as? Bool == true)
            #expect(after["consume"] as? Bool == true)
            #expect(after["state"] as? String == "paused")
            #expect(try daemon.qplayOK("status").contains("single on   consume on"))
            let watcher = try daemon.client()
            try watcher.ok("subscribe", ["events": ["player"]])
            try daemon.qplayOK("play")
            let event = try watcher.event("player") { $0["state"] as? String == "playing" }
            #expect(event["single"] as? Bool == true)
            #expect(event["consume"] as? Bool == true)
        }
    }

    /// Single: the track ends, playback stops, nothing of the next track is played, and
    /// the next entry is current for `play`. Consume: the track that ended leaves the queue.
    @Test func singleStopsAfterTheTrackAndConsumeRemovesIt() throws {
        try withDaemon { daemon in
            try daemon.qplayOK("add", "--where", "album~day")  // Morning, Evening: 4 s each
            try daemon.qplayOK("stop")
            try restart(daemon, single: true, consume: true)
            let heardBefore = try daemon.capturedFiles()

            let control = try daemon.client()
            let events = try daemon.client()
            try events.ok("subscribe", ["events": ["player", "queue"]])
            let playing = try control.ok("play")
            #expect(title(playing) == "Morning")
            try control.ok("seek", ["position": 3.0])
            let stopped = try events.event("player") { $0["state"] as? String == "stopped" }
            #expect(title(stopped) == "Evening", "the entry after the one that ended is current")
            #expect(stopped["position"] as? Double == 0)
            let queue = try control.ok("queue")
            let titles = (queue["entries"] as? [[String: Any]] ?? []).map { ($0["track"] as? [String: Any])?["title"] as? String }
            #expect(titles == ["Evening"], "Morning was consumed")
            #expect(queue["modified"] as? Bool == false)

            // Nothing of Evening reached the output, however long one waits.
            usleep(500_000)
            let heard = try daemon.capturedFiles()
            #expect(heard.contains(sampleFile(titled: "Morning")))
            #expect(!heard.contains(sampleFile(titled: "Evening")), "\(heardBefore) then \(heard)")

            // play starts Evening; single stops again after it, and the queue is empty.
            let resumed = try control.ok("play")
            #expect(title(resumed) == "Evening")
            try control.ok("seek", ["position": 3.0])
            let end = try events.event("player") { $0["state"] as? String == "stopped" }
            #expect(end["track"] is NSNull, "the queue has ended")
            #expect(end["queue_length"] as? Int == 0)
            #expect(try daemon.capturedFiles().contains(sampleFile(titled: "Evening")))
        }
    }
}
