import Foundation
import QPlayTestSupport
import Testing

/// Stored playlists through the real daemon and the real qplay binary: saved from the
/// queue, listed with their missing lines, edited, loaded (an empty queue starts), renamed
/// and removed, with the protocol's errors; the files are the folder's .m3u files.
@Suite struct PlaylistEndToEndTests {
    static let morning = "Test Tones/Day Cycle/01 Morning.mp3"
    static let evening = "Test Tones/Day Cycle/02 Evening.mp3"
    static let strasse = "Various/Straße.mp3"

    private func code(_ answer: [String: Any]) -> String? {
        (answer["error"] as? [String: Any])?["code"] as? String
    }

    private func paths(_ client: LineSocketClient, _ name: String) throws -> [String] {
        let entries = try client.ok("playlist_show", ["name": name])["entries"] as? [[String: Any]] ?? []
        return entries.compactMap { $0["path"] as? String }
    }

    @Test func savedListedEditedLoadedRenamedRemoved() throws {
        try withDaemon { daemon in
            let client = try daemon.client()
            let folder = daemon.dataDirectory + "/playlists"
            #expect(try client.ok("playlist_list")["playlists"] as? [Any] != nil)
            #expect((try client.ok("playlist_list")["playlists"] as? [Any])?.isEmpty == true)

            try client.ok("add", ["paths": [Self.morning, Self.evening]])
            #expect(try daemon.qplayOK("save", "Day") == "")
            let text = try String(contentsOfFile: folder + "/Day.m3u", encoding: .utf8)
            #expect(text == "#EXTM3U\n#EXTINF:4,Test Tones - Morning\n\(Self.morning)\n#EXTINF:4,Test Tones - Evening\n\(Self.evening)\n")
            let again = try daemon.qplay("save", "Day")
            #expect(again.status != 0 && again.stderr.contains("exists"), "\(again.stderr)")
            #expect(code(try client.request("playlist_save", ["name": "a/b"])) == "bad_request")
            #expect(code(try client.request("playlist_save", ["name": "x", "mode": "append"])) == "not_found")

            // A file another program wrote, with a line that names no track.
            try Array("gone/missing.mp3\n\(Self.strasse)\n".utf8).withUnsafeBytes {
                try Data($0).write(to: URL(fileURLWithPath: folder + "/Other.m3u"))
            }
            #expect(try daemon.qplayOK("playlists") == "Day  2 tracks\nOther  1 track, 1 missing\n")
            let listed = try client.ok("playlist_list")["playlists"] as? [[String: Any]] ?? []
            #expect(listed.map { $0["name"] as? String } == ["Day", "Other"])
            #expect(listed.last?["missing"] as? Int == 1 && listed.last?["smart"] as? Bool == false)
            #expect((listed.first?["modified"] as? String)?.hasSuffix("Z") == true)
            let shown = try client.ok("playlist_show", ["name": "Other"])["entries"] as? [[String: Any]] ?? []
            #expect(shown.map { $0["missing"] as? Bool } == [true, false])
            #expect(shown.first?["track"] is NSNull)
            #expect(((shown.last?["track"] as? [String: Any])?["path"] as? String) == Self.strasse)
            #expect(try daemon.qplayOK("playlist", "Other").contains("gone/missing.mp3  (missing)"))

            // Edits.
            try client.ok("playlist_add", ["name": "Day", "paths": [Self.strasse]])
            try client.ok("playlist_remove", ["name": "Day", "positions": [0]])
            try client.ok("playlist_move", ["name": "Day", "from": 1, "to": 0])
            #expect(try paths(client, "Day") == [Self.strasse, Self.evening])
            #expect(code(try client.request("playlist_remove", ["name": "Day", "positions": [2]])) == "bad_request")
            #expect(code(try client.request("playlist_show", ["name": "nothing"])) == "not_found")
            // By query and by id, as `add` takes them; a new playlist is made.
            try client.ok("playlist_add", ["name": "Love", "where": [["property": "album", "op": "equals", "value": "Love Songs"]]])
            #expect(try paths(client, "Love").count == 3)
            #expect(code(try client.request("playlist_add", ["name": "Love", "ids": [999_999]])) == "not_found")
            #expect(try paths(client, "Love").count == 3)
            try client.ok("playlist_delete", ["name": "Love"])
            try daemon.qplayOK("save", "Day", "--append")
            #expect(try paths(client, "Day") == [Self.strasse, Self.evening, Self.morning, Self.evening])
            try daemon.qplayOK("save", "Day", "--replace")
            #expect(try paths(client, "Day") == [Self.morning, Self.evening])

            // Loading: on an empty queue it starts; the missing line is counted.
            try client.ok("clear")
            try client.ok("stop")
            #expect(try daemon.qplayOK("load", "Other") == "added 1, skipped 1 missing\n")
            #expect(try client.status()["state"] as? String == "playing")
            let loaded = try client.ok("playlist_load", ["name": "Day", "position": 0])
            #expect(loaded["added"] as? Int == 2 && loaded["missing"] as? Int == 0 && loaded["started"] as? Bool == false)
            let queue = try client.ok("queue")["entries"] as? [[String: Any]] ?? []
            #expect(queue.compactMap { ($0["track"] as? [String: Any])?["path"] as? String } == [Self.morning, Self.evening, Self.strasse])

            // Rename and remove.
            #expect(code(try client.request("playlist_rename", ["name": "Day", "to": "Other"])) == "exists")
            try daemon.qplayOK("playlist", "mv", "Day", "Night")
            try daemon.qplayOK("playlist", "rm", "Night")
            #expect(code(try client.request("playlist_delete", ["name": "Night"])) == "not_found")
            #expect(try daemon.qplayOK("playlists") == "Other  1 track, 1 missing\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["Other.m3u"])
        }
    }

    /// Every change sends a `playlists` event to the subscribed; reading sends none.
    @Test func changesSendThePlaylistsEvent() throws {
        try withDaemon { daemon in
            let client = try daemon.client()
            let listener = try daemon.client()
            try listener.ok("subscribe", ["events": ["playlists"]])
            try client.ok("add", ["paths": [Self.morning]])
            try client.ok("playlist_save", ["name": "One"])
            try client.ok("playlist_show", ["name": "One"])
            try client.ok("playlist_rename", ["name": "One", "to": "Two"])
            try client.ok("playlist_delete", ["name": "Two"])
            for _ in 0..<3 {
                let event = try listener.readObject()
                #expect(event["event"] as? String == "playlists", "\(event)")
                #expect((event["data"] as? [String: Any])?.isEmpty == true)
            }
            #expect(try listener.readLineIfAny(within: 0.5) == nil, "one event per change")
        }
    }

    /// A playlist another program writes, replaces or removes in the folder raises the
    /// event (and MPD's idle) too, once per change; qplayd's own writes raise it once.
    @Test func changesByOtherProgramsAreSeen() throws {
        let port = try FreeTCPPort.probe()
        try withDaemon(arguments: ["--mpd", "127.0.0.1:\(port)"]) { daemon in
            let folder = daemon.dataDirectory + "/playlists"
            let listener = try daemon.client()
            try listener.ok("subscribe", ["events": ["playlists"]])
            let (mpd, _) = try LineSocketClient.mpd(port: port)
            try mpd.send("idle stored_playlist")

            // Another program writes a file the usual way: a temporary name renamed in place.
            try Array("\(Self.morning)\n".utf8).withUnsafeBytes {
                try Data($0).write(to: URL(fileURLWithPath: folder + "/.outside.tmp"))
            }
            #expect(rename(folder + "/.outside.tmp", folder + "/Outside.m3u") == 0)
            let event = try listener.readObject()
            #expect(event["event"] as? String == "playlists", "\(event)")
            #expect(try mpd.mpdResponse() == ["changed: stored_playlist", "OK"])
            let client = try daemon.client()
            #expect(try paths(client, "Outside") == [Self.morning])

            // Removed by hand: one more event.
            #expect(unlink(folder + "/Outside.m3u") == 0)
            #expect(try listener.readObject()["event"] as? String == "playlists")

            // qplayd's own save: one event, not a second one from the watch.
            try client.ok("add", ["paths": [Self.morning]])
            try client.ok("playlist_save", ["name": "Mine"])
            #expect(try listener.readObject()["event"] as? String == "playlists")
            #expect(try listener.readLineIfAny(within: 1) == nil, "qplayd's own write raised the event twice")
        }
    }
}
