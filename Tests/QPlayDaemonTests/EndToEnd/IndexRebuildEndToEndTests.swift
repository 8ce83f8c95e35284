import Foundation
import QPlayTestSupport
import Testing

/// A library index built again from nothing numbers its tracks afresh, in scan order
/// (docs/BEHAVIOUR.md, Play counts and ratings): play counts, ratings, MPD stickers and
/// bookmarks stay with their files, not with whatever file now has their old ids.
@Suite(.timeLimit(.minutes(2)))
struct IndexRebuildEndToEndTests {
    static let config = "watch = false\n"
    static let tones = [
        ToneFixture(file: "rebuild-b.mp3", title: "Rebuild B", toneHz: 500, seconds: 3),
        ToneFixture(file: "rebuild-c.mp3", title: "Rebuild C", toneHz: 700, seconds: 2),
    ]
    /// Indexed first after the rebuild, while B and C are away: they take B's and C's
    /// old ids, and B and C come back under new ones.
    static let newcomers = [
        ToneFixture(file: "rebuild-a1.mp3", title: "Rebuild A1", toneHz: 900, seconds: 2),
        ToneFixture(file: "rebuild-a2.mp3", title: "Rebuild A2", toneHz: 1100, seconds: 2),
    ]

    static func figures(_ client: LineSocketClient) throws -> [String: [Int]] {
        let tracks = try #require(try client.ok("search", ["where": [[String: Any]]()])["tracks"] as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: tracks.map { track in
                (track["title"] as? String ?? "", ["id", "plays", "rating"].map { (track[$0] as? Int) ?? -1 })
            })
    }

    @Test func countsRatingsStickersAndBookmarksStayWithTheirFiles() throws {
        let music = TemporaryDirectory("qplay-rebuild")
        defer { music.remove() }
        _ = try ToneFixtures.generate(Self.tones, in: music)
        let port = try FreeTCPPort.probe()
        try withDaemon(music: music.path.string, config: Self.config, arguments: ["--mpd", "127.0.0.1:\(port)"]) {
            daemon in
            var client = try daemon.client()
            let before = try Self.figures(client)
            let (b, c) = (try #require(before["Rebuild B"]?[0]), try #require(before["Rebuild C"]?[0]))
            try daemon.qplayOK("rate", "4", "--track", "\(b)")
            try daemon.qplayOK("rate", "2", "--track", "\(c)")
            let mpd = try MPDRawClient(port: port)
            #expect(try mpd.command("sticker set song rebuild-c.mp3 mood calm") == ["OK"])
            // B paused at once and bookmarked; C then plays to its end: one play.
            try client.ok("add", ["paths": Self.tones.map(\.file)])
            try client.ok("pause")
            try client.ok("bookmark_add", ["name": "on B"])
            try client.ok("next")
            try client.ok("play")
            try waitUntil("C played") { try Self.figures(client)["Rebuild C"]?[1] == 1 }

            daemon.stop()
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: daemon.dataDirectory + "/library.sqlite" + suffix)
            }
            let away = TemporaryDirectory("qplay-rebuild-away")
            defer { away.remove() }
            for tone in Self.tones {
                try FileManager.default.moveItem(
                    atPath: music.appending(tone.file).string, toPath: away.appending(tone.file).string)
            }
            _ = try ToneFixtures.generate(Self.newcomers, in: music)
            try daemon.start(["--config", try daemon.writeConfig(Self.config), "--mpd", "127.0.0.1:\(port)"])
            try daemon.waitForLibrary()
            client = try daemon.client()
            let newcomers = try Self.figures(client)
            #expect(Set(newcomers.values.map { $0[0] }) == [b, c], "the newcomers have the old ids")
            #expect(newcomers.values.allSatisfy { Array($0.dropFirst()) == [0, 0] }, "\(newcomers)")
            for tone in Self.tones {
                try FileManager.default.moveItem(
                    atPath: away.appending(tone.file).string, toPath: music.appending(tone.file).string)
            }
            try client.ok("update", ["wait": true])
            try waitUntil("figures moved to the new ids") { try Self.figures(client)["Rebuild B"]?[2] == 4 }
            let after = try Self.figures(client)
            #expect(![b, c].contains(after["Rebuild B"]?[0] ?? b))
            for newcomer in Self.newcomers {
                #expect(after[newcomer.title].map { Array($0.dropFirst()) } == [0, 0])
            }
            #expect(after["Rebuild B"].map { Array($0.dropFirst()) } == [0, 4])
            #expect(after["Rebuild C"].map { Array($0.dropFirst()) } == [1, 2])
            let again = try MPDRawClient(port: port)
            #expect(try again.command("sticker get song rebuild-c.mp3 mood") == ["sticker: mood=calm", "OK"])
            #expect(try again.command("sticker get song rebuild-b.mp3 mood").first?.hasPrefix("ACK") == true)
            for newcomer in Self.newcomers {
                #expect(try again.command("sticker get song \(newcomer.file) mood").first?.hasPrefix("ACK") == true)
            }
            let bookmarks = try #require(try client.ok("bookmark_list")["bookmarks"] as? [[String: Any]])
            #expect(bookmarks.count == 1)
            #expect((bookmarks.first?["track"] as? [String: Any])?["title"] as? String == "Rebuild B")
        }
    }
}
