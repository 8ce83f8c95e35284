import Foundation
import QPlayTestSupport
import Testing

/// Play counts and ratings through the real daemon, the real `qplay` and the `file:`
/// capture (docs/BEHAVIOUR.md, Play counts and ratings): what counts is what was heard
/// — a second before `next` is nothing, a seek past the middle then `next` is a skip
/// and no play, a track heard to its end or past its middle is a play, one left at
/// 40 % a skip — and the
/// figures survive a `kill -9`, a restart and a rescan.
@Suite struct PlayCountEndToEndTests {
    static let config = "watch = false\n"
    /// 12 s, 12 s, 4 s, 12 s and 12 s: a play needs 6 s, 6 s, 2 s, 6 s and 6 s heard.
    static let tones = [
        ToneFixture(file: "count-a.mp3", title: "Count A", toneHz: 400, seconds: 12),
        ToneFixture(file: "count-b.mp3", title: "Count B", toneHz: 600, seconds: 12),
        ToneFixture(file: "count-c.mp3", title: "Count C", toneHz: 800, seconds: 4),
        ToneFixture(file: "count-d.mp3", title: "Count D", toneHz: 1000, seconds: 12),
        ToneFixture(file: "count-e.mp3", title: "Count E", toneHz: 1300, seconds: 12),
    ]

    /// Every track of the library by title, as `search` shows it.
    static func tracks(_ client: LineSocketClient) throws -> [String: [String: Any]] {
        let result = try client.ok("search", ["where": [[String: Any]]()])
        let tracks = try #require(result["tracks"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: tracks.map { ($0["title"] as? String ?? "", $0) })
    }

    static func figures(_ track: [String: Any]?) -> [Int] {
        ["plays", "skips", "rating"].map { (track?[$0] as? Int) ?? -1 }
    }

    static func position(_ client: LineSocketClient) throws -> Double {
        try #require(number(try client.status()["position"]))
    }

    /// Seconds each tone sounds in the capture.
    static func heardSeconds(_ daemon: DaemonProcess) throws -> [Double] {
        let runs = ToneRuns.runs(in: try daemon.capturedSamples(), tones: tones.map(\.toneHz))
        return tones.indices.map { tone in
            Double(runs.filter { $0.tone == tone }.map(\.frames).reduce(0, +)) / 44100
        }
    }

    @Test func countsFollowWhatWasHeardAndSurviveKillRestartAndRescan() throws {
        let music = TemporaryDirectory("qplay-counts")
        defer { music.remove() }
        _ = try ToneFixtures.generate(Self.tones, in: music)
        try withDaemon(music: music.path.string, config: Self.config) { daemon in
            var client = try daemon.client()
            let restart = ["--config", try daemon.writeConfig(Self.config)]
            // Every track has its first sighting, and nothing else yet.
            try waitUntil("added recorded") { try Self.tracks(client).values.allSatisfy { $0["added"] is String } }
            let before = try Self.tracks(client)
            #expect(before.count == 5)
            for track in before.values {
                #expect(Self.figures(track) == [0, 0, 0])
                #expect(track["last_played"] is NSNull)
            }

            // A: about a second, paused, then next — under 2 s heard, no skip.
            try client.ok("add", ["paths": Self.tones.map(\.file)])
            try waitUntil("A playing past 1 s") { try Self.position(client) >= 1 }
            try client.ok("pause")
            #expect(try Self.position(client) < 2)
            try daemon.qplayOK("next")
            #expect(title(try client.status()) == "Count B")
            // B: straight past its middle, 3 s there, then next — a skip, no play.
            try client.ok("seek", ["position": 8])
            try client.ok("play")
            try waitUntil("B playing past 11 s") { try Self.position(client) >= 11 }
            try daemon.qplayOK("next")
            #expect(title(try client.status()) == "Count C")
            // C plays to its end; D past its middle.
            try waitUntil("D playing past 8 s") {
                let status = try client.status()
                return title(status) == "Count D" && (number(status["position"]) ?? 0) >= 8
            }
            // Counted when heard, without leaving D.
            try waitUntil("D counted") { Self.figures(try Self.tracks(client)["Count D"]).first == 1 }
            try client.ok("pause")
            // Still D: the play counted before its end, from what had been heard.
            #expect(title(try client.status()) == "Count D")
            // Rating the playing (paused) track, as `qplay rate` does without `--track`.
            try daemon.qplayOK("rate", "5")
            #expect((try client.status()["track"] as? [String: Any])?["rating"] as? Int == 5)
            // E: left at 40 % (about 4.8 s of 12) — a skip, no play; D stays one play.
            try daemon.qplayOK("next")
            #expect(title(try client.status()) == "Count E")
            try client.ok("play")
            try waitUntil("E playing past 4.5 s") { try Self.position(client) >= 4.5 }
            try client.ok("pause")
            #expect(try Self.position(client) < 6)
            try daemon.qplayOK("next")

            let heard = try Self.heardSeconds(daemon)
            #expect(heard[0] < 2, "A sounded \(heard[0]) s")
            #expect(heard[1] > 2 && heard[1] < 6, "B sounded \(heard[1]) s: less than its half")
            #expect(heard[2] > 3.5, "C sounded \(heard[2]) s of 4")
            #expect(heard[3] >= 6, "D sounded \(heard[3]) s")
            #expect(heard[4] > 4 && heard[4] < 6, "E sounded \(heard[4]) s: less than its half")
            var counted = try Self.tracks(client)
            #expect(Self.figures(counted["Count A"]) == [0, 0, 0])
            #expect(Self.figures(counted["Count B"]) == [0, 1, 0])
            #expect(Self.figures(counted["Count C"]) == [1, 0, 0])
            #expect(Self.figures(counted["Count D"]) == [1, 0, 5])
            #expect(Self.figures(counted["Count E"]) == [0, 1, 0])
            #expect(counted["Count B"]?["last_played"] is NSNull)
            let lastPlayed = try #require(counted["Count C"]?["last_played"] as? String)
            #expect(ISO8601DateFormatter().date(from: lastPlayed) != nil, "\(lastPlayed)")

            // Another by id, through qplay.
            let cID = try #require(counted["Count C"]?["id"] as? Int)
            try daemon.qplayOK("rate", "3", "--track", "\(cID)")
            #expect(try daemon.qplay("rate", "6").status != 0)

            // kill -9: every count and rating was written when it was made.
            daemon.kill9()
            try daemon.start(restart)
            client = try daemon.client()
            counted = try Self.tracks(client)
            #expect(Self.figures(counted["Count B"]) == [0, 1, 0])
            #expect(Self.figures(counted["Count C"]) == [1, 0, 3])
            #expect(Self.figures(counted["Count D"]) == [1, 0, 5])
            #expect(counted["Count C"]?["last_played"] as? String == lastPlayed)
            // First sightings are not taken again at a restart.
            #expect(counted["Count A"]?["added"] as? String == before["Count A"]?["added"] as? String)

            // A rescan that reads C again keeps its id, and so its figures and first sighting.
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: music.appending("count-c.mp3").string)
            let scan = try client.ok("update", ["wait": true])
            #expect(scan["updated"] as? Int == 1, "\(scan)")
            let rescanned = try Self.tracks(client)
            #expect(Self.figures(rescanned["Count C"]) == [1, 0, 3])
            #expect(rescanned["Count C"]?["added"] as? String == before["Count C"]?["added"] as? String)

            // A clean restart keeps them too.
            daemon.stop()
            try daemon.start(restart)
            client = try daemon.client()
            #expect(Self.figures(try Self.tracks(client)["Count D"]) == [1, 0, 5])

            // Each figure predicate, on the wire and through `--where`.
            func titles(_ predicate: [String: Any]) throws -> [String] {
                let result = try client.ok("search", ["where": [predicate]])
                return (result["tracks"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }.sorted()
            }
            #expect(try titles(["property": "rating", "op": "ge", "value": 4]) == ["Count D"])
            #expect(try titles(["property": "rating", "op": "lt", "value": 4]) == ["Count A", "Count B", "Count C", "Count E"])
            #expect(try titles(["property": "plays", "op": "eq", "value": 0]) == ["Count A", "Count B", "Count E"])
            #expect(try titles(["property": "plays", "op": "gt", "value": 0]) == ["Count C", "Count D"])
            #expect(try titles(["property": "skips", "op": "ge", "value": 1]) == ["Count B", "Count E"])
            #expect(try titles(["property": "skips", "op": "le", "value": 0]) == ["Count A", "Count C", "Count D"])
            #expect(try titles(["property": "last_played", "op": "within", "value": "1h"]) == ["Count C", "Count D"])
            #expect(try titles(["property": "last_played", "op": "before", "value": "1h"]) == ["Count A", "Count B", "Count E"])
            #expect(try titles(["property": "added", "op": "within", "value": "1d"]).count == 5)
            #expect(try titles(["property": "added", "op": "before", "value": "1d"]).isEmpty)
            #expect(try daemon.qplayOK("search", "--where", "rating>=4").contains("Count D"))
            let unplayed = try daemon.qplayOK("search", "--where", "plays=0", "--where", "skips>0")
            #expect(unplayed.contains("Count B") && !unplayed.contains("Count A"), "\(unplayed)")
            #expect(try daemon.qplayOK("search", "--where", "last_played>90d", "--where", "added<30d").contains("Count A"))
            #expect(try daemon.qplay("search", "--where", "plays>=x").status != 0)
        }
    }
}
