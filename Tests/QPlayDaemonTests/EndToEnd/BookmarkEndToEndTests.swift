import Foundation
import QPlayTestSupport
import Testing

/// Bookmarks through the real daemon and the real qplay binary: made at a position,
/// listed, kept across a restart and a rescan, jumped to (a queued entry, or a new one
/// after the playing entry), removed; forgotten when the file leaves the library.
@Suite struct BookmarkEndToEndTests {
    /// Two 60 s MP3s (32 kb/s mono, made with sox and lame): `long-a.mp3`, `long-b.mp3`.
    private func longMusic() throws -> TemporaryDirectory {
        let music = TemporaryDirectory("qplay-bookmarks")
        for (name, hz) in [("long-a", 440), ("long-b", 660)] {
            let wav = music.appending("\(name).wav").string
            try GeneratedAudio.run(
                "sox", "-R", "-n", "-r", "22050", "-c", "1", "-b", "16", wav,
                "synth", "60", "sine", "\(hz)", "vol", "0.3")
            try GeneratedAudio.run("lame", "--quiet", "-b", "32", wav, music.appending("\(name).mp3").string)
            try FileManager.default.removeItem(atPath: wav)
        }
        return music
    }

    private func bookmarks(_ client: LineSocketClient, _ args: [String: Any]? = nil) throws -> [[String: Any]] {
        try client.ok("bookmark_list", args)["bookmarks"] as? [[String: Any]] ?? []
    }

    @Test func bookmarksSurviveRestartAndRescanAndJumpBack() throws {
        let music = try longMusic()
        defer { music.remove() }
        try withDaemon(music: music.path.string) { daemon in
            var client = try daemon.client()

            // Nothing current: nothing to bookmark.
            let refused = try client.request("bookmark_add")
            #expect((refused["error"] as? [String: Any])?["code"] as? String == "bad_request", "\(refused)")

            try client.ok("add", ["paths": ["long-a.mp3"]])
            try client.ok("seek", ["position": 20])
            try waitUntil("playing past 20 s") { number(try client.status()["position"]) ?? 0 >= 20.5 }
            try client.ok("pause")
            let pausedAt = try #require(number(try client.status()["position"]))
            let id = try #require(try client.ok("bookmark_add", ["name": "chapter two"])["bookmark"] as? Int)
            // The CLI: an unnamed one, its id printed.
            #expect(try daemon.qplayOK("bookmark") == "bookmark \(id + 1)\n")

            var listed = try bookmarks(client)
            try #require(listed.count == 2)
            #expect(listed[0]["bookmark"] as? Int == id)
            #expect(abs((number(listed[0]["position"]) ?? -1) - pausedAt) < 0.05, "\(listed[0]) vs \(pausedAt)")
            #expect(listed[0]["name"] as? String == "chapter two")
            #expect(listed[1]["name"] is NSNull)
            let track = try #require(listed[0]["track"] as? [String: Any])
            #expect(track["path"] as? String == "long-a.mp3")
            #expect((listed[0]["created"] as? String)?.contains("T") == true)
            try daemon.qplayOK("bookmark", "rm", "\(id + 1)")

            // A restart and a rescan keep it.
            daemon.stop()
            try daemon.start()
            try daemon.waitForLibrary()
            client = try daemon.client()
            try client.ok("update", ["wait": true])
            listed = try bookmarks(client)
            #expect(listed.count == 1)
            #expect(listed.first?["bookmark"] as? Int == id)
            let trackID = try #require(track["id"] as? Int)
            #expect(try bookmarks(client, ["track": trackID]).count == 1)
            #expect(try bookmarks(client, ["track": trackID + 1000]).isEmpty)
            let lines = try daemon.qplayOK("bookmarks")
            #expect(lines.contains("chapter two") && lines.hasPrefix("\(id) "), "\(lines)")

            // Not queued: added after the playing entry and played from the bookmark.
            try client.ok("clear")
            try client.ok("add", ["paths": ["long-b.mp3"]])
            try client.ok("play")
            try daemon.qplayOK("bookmark", "go", "\(id)")
            var status = try client.status()
            #expect(title(status) == "long-a")
            #expect(status["index"] as? Int == 1, "\(status)")
            #expect(status["state"] as? String == "playing")
            try waitUntil("reported near the bookmark") {
                status = try client.status()
                return abs((number(status["position"]) ?? 0) - pausedAt) < 1.0
            }
            let queue = try client.ok("queue")["entries"] as? [[String: Any]] ?? []
            #expect(queue.count == 2)

            // Queued: that entry is played, nothing is added.
            try client.ok("jump", ["index": 0])
            try client.ok("bookmark_jump", ["bookmark": id])
            #expect((try client.ok("queue")["entries"] as? [[String: Any]] ?? []).count == 2)
            #expect(try client.status()["index"] as? Int == 1)

            try client.ok("bookmark_remove", ["bookmark": id])
            #expect(try bookmarks(client).isEmpty)
            let again = try client.request("bookmark_remove", ["bookmark": id])
            #expect((again["error"] as? [String: Any])?["code"] as? String == "not_found", "\(again)")
            let jumpGone = try client.request("bookmark_jump", ["bookmark": id])
            #expect((jumpGone["error"] as? [String: Any])?["code"] as? String == "not_found", "\(jumpGone)")
        }
    }

    @Test func aBookmarkGoesWithItsFile() throws {
        let music = try longMusic()
        defer { music.remove() }
        try withDaemon(music: music.path.string, config: "watch = false\n") { daemon in
            let client = try daemon.client()
            try client.ok("add", ["paths": ["long-b.mp3", "long-a.mp3"]])
            try client.ok("bookmark_add")
            try client.ok("stop")
            try FileManager.default.removeItem(atPath: music.appending("long-b.mp3").string)
            try client.ok("update", ["wait": true])
            #expect(try bookmarks(client).isEmpty)
        }
    }
}
