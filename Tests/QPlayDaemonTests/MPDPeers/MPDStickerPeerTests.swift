import Foundation
import QPlayTestSupport
import Testing

/// Stickers against the real MPD 0.23 (docs/MPD.md, Stickers): the same script of
/// sticker lines to both servers, python-mpd2's sticker calls on both, and on qplayd
/// alone the names that stand for qplay's own figures (rating, playCount, lastPlayed),
/// the `sticker` idle subsystem and stickers kept across a restart.
@Suite(.serialized, .tags(.peer), .group(.peer))
struct MPDStickerPeerTests {
    static let morning = "\"Test Tones/Day Cycle/01 Morning.mp3\""
    static let evening = "\"Test Tones/Day Cycle/02 Evening.mp3\""

    static let script: [String] = [
        "sticker list song \(morning)",
        "sticker get song \(morning) mood",
        "sticker set song \(morning) mood calm",
        "sticker set song \(morning) Mood \"Two words\"",
        "sticker set song \(morning) mood bright",
        "sticker set song \(morning) equation a=b",
        "sticker set song \(evening) mood calm",
        "sticker set song \"Chloé Dubois/Café Crème.mp3\" mood \"café ☕\"",
        "sticker set song \"Test Tones/Love Songs/01 Love Song.mp3\" mood calm",
        "sticker set song \"Various/夜の歌.mp3\" seen 10",
        "sticker set song \"Various/Straße.mp3\" seen 9",
        "sticker set song untagged.mp3 seen 100",
        "sticker set song untagged.mp3 empty \"\"",
        "sticker get song untagged.mp3 empty",
        "sticker get song \(morning) mood",
        "sticker get song \(morning) Mood",
        "sticker get song \(morning) equation",
        "sticker list song \(morning)",
        "sticker list song untagged.mp3",
        "sticker find song \"\" mood",
        "sticker find song \"Test Tones\" mood",
        "sticker find song \"Test Tones/Day Cycle\" mood = calm",
        "sticker find song \"\" mood = calm",
        "sticker find song \"\" seen < 5",
        "sticker find song \"\" seen > 5",
        "sticker find song \"\" seen = 9",
        "sticker find song \"\" mood ~ calm",
        "sticker find song \"\" mood =",
        "sticker find song Test mood",
        "sticker find song \"Test Tones/\" mood",
        "sticker find song \"no/such\" mood",
        "sticker find song \(morning) mood",
        "sticker find song \"\" nosuchname",
        "sticker delete song \(morning) mood",
        "sticker delete song \(morning) mood",
        "sticker list song \(morning)",
        "sticker delete song \(morning)",
        "sticker delete song \(morning)",
        "sticker list song \(morning)",
        "sticker find song \"\" mood",
        "sticker get song \"no/such.mp3\" mood",
        "sticker set song \"no/such.mp3\" mood x",
        "sticker list song \"no/such.mp3\"",
        "sticker delete song \"no/such.mp3\"",
        "sticker list song \"Test Tones\"",
        "sticker get song \"\" mood",
        "sticker get album \"Test Tones\" mood",
        "sticker list playlist x",
        "sticker get song \(morning)",
        "sticker get",
        "sticker",
        "sticker frob song untagged.mp3",
        "sticker get song untagged.mp3 seen extra",
        "sticker set song untagged.mp3 onlyname",
        "sticker find song \"\" seen =",
        "idle sticker",
        "sticker get song untagged.mp3 seen",
        "idle sticker",
    ]

    @Test(arguments: MPDPeerKind.tested)
    func sameScriptSameAnswers(_ kind: MPDPeerKind) throws {
        // The last `idle sticker` waits: nothing changed since the one before. Both
        // answer it once another connection sets a sticker.
        let (expected, actual) = try MPDPeerScript.runOnMPDAnd(
            kind, Self.script,
            beforeReading: { peer, index in
                guard index == Self.script.count - 1 else { return }
                usleep(200_000)
                let other = try peer.client()
                #expect(try other.mpd("sticker set song untagged.mp3 seen 11") == ["OK"])
            })
        #expect(expected.responses.count == Self.script.count)
        // The script is not empty-handed on the reference: it finds, lists and refuses.
        #expect(expected.responses[19].count == 9, "\(expected.responses[19])")
        try MPDPeerScript.expectSameAnswers(
            Self.script, expected: expected.responses, actual: actual.responses, kind: kind, transcripts: "sticker-")
    }

    static let pythonScript = #"""
        out = {}
        c = mpd.MPDClient()
        c.timeout = 20
        c.connect(HOST, PORT)
        song = "Test Tones/Love Songs/02 Endless Love.mp3"
        c.sticker_set("song", song, "mood", "warm")
        c.sticker_set("song", song, "note", "x = y")
        c.sticker_set("song", "Various/Straße.mp3", "mood", "warm")
        c.sticker_set("song", "Various/Ночной город.mp3", "mood", "cold")
        out["get"] = c.sticker_get("song", song, "mood")
        out["get_equals"] = c.sticker_get("song", song, "note")
        out["list"] = c.sticker_list("song", song)
        out["find"] = c.sticker_find("song", "", "mood")
        out["find_various"] = c.sticker_find("song", "Various", "mood")
        out["find_equal"] = c.sticker_find("song", "", "mood", "=", "warm")
        c.sticker_delete("song", song, "note")
        out["after_delete"] = c.sticker_list("song", song)
        c.sticker_delete("song", song)
        out["after_delete_all"] = c.sticker_list("song", song)
        for key, call in [
            ("missing", lambda: c.sticker_get("song", song, "mood")),
            ("no_song", lambda: c.sticker_list("song", "no/such.mp3")),
            ("bad_type", lambda: c.sticker_get("album", song, "mood")),
            ("bad_operator", lambda: c.sticker_find("song", "", "mood", "!=", "warm")),
        ]:
            try:
                call()
                out[key] = None
            except mpd.CommandError as error:
                out[key] = str(error)
        print(json.dumps(out, sort_keys=True))
        """#

    @Test func pythonMPD2StickerCallsGiveMPDsAnswers() throws {
        let library = try peerLibrary()
        defer { library.remove() }
        var outputs: [MPDPeerKind: String] = [:]
        for kind in MPDPeerKind.tested {
            try withPeer(kind, music: library.path.string) { peer in outputs[kind] = try peer.python(Self.pythonScript) }
        }
        let mpd = try parseJSON(outputs[.mpd] ?? "")
        #expect(mpd["get"] as? String == "warm")
        #expect(mpd["get_equals"] as? String == "x = y")
        #expect((mpd["find"] as? [Any])?.count == 3)
        #expect(mpd["after_delete_all"] as? [String: String] == [:])
        #expect((mpd["missing"] as? String)?.contains("no such sticker") == true)
        #expect(outputs[.qplayd] == outputs[.mpd])
    }

    /// qplayd only: `rating` is the track's rating (stars × 2) both ways, `playCount` and
    /// `lastPlayed` its plays, read only; `sticker` wakes an idle client on another
    /// connection; stickers outlive a restart.
    @Test func figuresUnderStickerNamesIdleAndRestart() throws {
        let library = try peerLibrary()
        defer { library.remove() }
        try withPeer(.qplayd, music: library.path.string) { peer in
            let daemon = try #require(peer.daemon)
            let uri = "Test Tones/Day Cycle/01 Morning.mp3"
            let song = "song \"\(uri)\""
            let client = try peer.client()
            let json = try daemon.client()
            func jsonTrack() throws -> [String: Any] {
                let result = try json.ok("search", ["where": [[String: Any]]()])
                let tracks = try #require(result["tracks"] as? [[String: Any]])
                return try #require(tracks.first { $0["path"] as? String == uri })
            }
            let id = try #require(try jsonTrack()["id"] as? Int)

            #expect(try client.mpd("sticker get \(song) rating") == ["ACK [50@0] {sticker} no such sticker"])
            #expect(try client.mpd("sticker delete \(song) rating") == ["ACK [50@0] {sticker} no such sticker"])
            let idle = try peer.client()
            try idle.send("idle sticker")
            #expect(try client.mpd("sticker set \(song) rating 8") == ["OK"])
            #expect(try idle.mpdResponse() == ["changed: sticker", "OK"])
            #expect(try jsonTrack()["rating"] as? Int == 4)
            #expect(try client.mpd("sticker get \(song) rating") == ["sticker: rating=8", "OK"])
            // An odd number rounds up to the next whole star.
            #expect(try client.mpd("sticker set \(song) rating 7") == ["OK"])
            #expect(try jsonTrack()["rating"] as? Int == 4)
            #expect(try client.mpd("sticker set \(song) rating 1") == ["OK"])
            #expect(try jsonTrack()["rating"] as? Int == 1)
            #expect(try client.mpd("sticker set \(song) rating 11") == ["ACK [2@0] {sticker} Number too large: 11"])
            #expect(try client.mpd("sticker set \(song) rating high") == ["ACK [2@0] {sticker} Integer expected: high"])
            #expect(try jsonTrack()["rating"] as? Int == 1)
            // Rated through qplay's own protocol, read through the sticker.
            try daemon.qplayOK("rate", "3", "--track", "\(id)")
            #expect(try client.mpd("sticker get \(song) rating") == ["sticker: rating=6", "OK"])
            #expect(try client.mpd("sticker find song \"Test Tones\" rating") == ["file: \(uri)", "sticker: rating=6", "OK"])
            #expect(try client.mpd("sticker find song \"\" rating = 6") == ["file: \(uri)", "sticker: rating=6", "OK"])
            #expect(try client.mpd("sticker find song \"Various\" rating") == ["OK"])
            #expect(try client.mpd("sticker set \(song) mood calm") == ["OK"])
            #expect(try client.mpd("sticker list \(song)") == ["sticker: mood=calm", "sticker: rating=6", "OK"])

            // Plays: none yet, and read only.
            #expect(try client.mpd("sticker get \(song) playCount") == ["ACK [50@0] {sticker} no such sticker"])
            #expect(
                try client.mpd("sticker set \(song) playCount 5")
                    == ["ACK [2@0] {sticker} playCount is read-only: qplay counts plays itself"])
            #expect(
                try client.mpd("sticker delete \(song) lastPlayed")
                    == ["ACK [2@0] {sticker} lastPlayed is read-only: qplay records when a track is played"])
            // Played to its end (3 s): one play, and when.
            let before = Int(Date().timeIntervalSince1970)
            #expect(try client.mpd("add \"\(uri)\"") == ["OK"])
            #expect(try client.mpd("play 0") == ["OK"])
            try waitUntil("the play counted") {
                try client.mpd("sticker get \(song) playCount") == ["sticker: playCount=1", "OK"]
            }
            let lastPlayed = try client.mpd("sticker get \(song) lastPlayed")
            let seconds = try #require(Int(lastPlayed.first?.replacingOccurrences(of: "sticker: lastPlayed=", with: "") ?? ""))
            #expect(seconds >= before && seconds <= Int(Date().timeIntervalSince1970) + 1, "\(lastPlayed)")
            #expect(
                try client.mpd("sticker list \(song)")
                    == ["sticker: lastPlayed=\(seconds)", "sticker: mood=calm", "sticker: playCount=1", "sticker: rating=6", "OK"])
            #expect(try client.mpd("sticker find song \"Test Tones/Day Cycle\" playCount") == ["file: \(uri)", "sticker: playCount=1", "OK"])

            // Deleting all: the stored stickers and the rating; the counts stay.
            #expect(try client.mpd("sticker set \(song) mood calm") == ["OK"])
            #expect(try client.mpd("sticker set song \"Various/Straße.mp3\" keep me") == ["OK"])
            #expect(try client.mpd("sticker delete \(song)") == ["OK"])
            #expect(try jsonTrack()["rating"] as? Int == 0)
            #expect(
                try client.mpd("sticker list \(song)")
                    == ["sticker: lastPlayed=\(seconds)", "sticker: playCount=1", "OK"])
            #expect(try client.mpd("sticker set \(song) rating 10") == ["OK"])

            // A restart keeps the stored stickers and the figures.
            daemon.stop()
            try daemon.start(["--mpd", "\(peer.host):\(peer.port)"])
            try waitUntil("the MPD port answers again") { (try? peer.client()) != nil }
            let again = try peer.client()
            #expect(try again.mpd("sticker list song \"Various/Straße.mp3\"") == ["sticker: keep=me", "OK"])
            #expect(
                try again.mpd("sticker list \(song)")
                    == ["sticker: lastPlayed=\(seconds)", "sticker: playCount=1", "sticker: rating=10", "OK"])

            // A rescan that reads the file again keeps its track id, and so its stickers.
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(5)],
                ofItemAtPath: library.appending("Various/Straße.mp3").string)
            let scan = try daemon.client().ok("update", ["wait": true])
            #expect(scan["updated"] as? Int == 1, "\(scan)")
            #expect(try again.mpd("sticker list song \"Various/Straße.mp3\"") == ["sticker: keep=me", "OK"])
            #expect(try again.mpd("sticker find song Various keep = me") == ["file: Various/Straße.mp3", "sticker: keep=me", "OK"])
        }
    }

    private func parseJSON(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }
}
