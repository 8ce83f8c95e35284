import Foundation
import QPlayTestSupport
import Testing

/// Smart playlists through the real daemon, the real `qplay` and the MPD frontend: a
/// stored query listed among the playlists and always current (a rating changes what
/// it holds), ordered and cut as asked, loaded like any playlist, read-only to edits
/// and to MPD clients, kept as `NAME.smart` in the playlist folder.
@Suite struct SmartPlaylistEndToEndTests {
    private func code(_ answer: [String: Any]) -> String? {
        (answer["error"] as? [String: Any])?["code"] as? String
    }

    private func titles(_ client: LineSocketClient, _ name: String) throws -> [String] {
        let entries = try client.ok("playlist_show", ["name": name])["entries"] as? [[String: Any]] ?? []
        return entries.compactMap { ($0["track"] as? [String: Any])?["title"] as? String }
    }

    private func id(_ client: LineSocketClient, title: String) throws -> Int {
        let found = try client.ok("search", ["where": [["property": "title", "op": "equals", "value": title]]])
        return try #require((found["tracks"] as? [[String: Any]])?.first?["id"] as? Int, "\(title)")
    }

    @Test func storedQueriesStayCurrentAndReadOnly() throws {
        try withMPDDaemon { mpd in
            let daemon = mpd.daemon
            let client = try daemon.client()
            let folder = daemon.dataDirectory + "/playlists"

            #expect(try daemon.qplayOK("smart", "Top rated", "--where", "rating>=4", "--sort", "rating") == "")
            var listed = try client.ok("playlist_list")["playlists"] as? [[String: Any]] ?? []
            #expect(listed.count == 1 && listed.first?["smart"] as? Bool == true && listed.first?["tracks"] as? Int == 0)
            let rule = try #require(listed.first?["rule"] as? [String: Any])
            #expect(rule["sort"] as? String == "rating")
            #expect(((rule["where"] as? [[String: Any]])?.first?["value"] as? Int) == 4, "\(rule)")
            let stored = try String(contentsOfFile: folder + "/Top rated.smart", encoding: .utf8)
            #expect(stored.contains(#""property":"rating""#) && stored.contains(#""value":4"#), "\(stored)")

            // Ratings change what it holds, in rating order (ties in the library order).
            try daemon.qplayOK("rate", "4", "--track", "\(try id(client, title: "Evening"))")
            #expect(try titles(client, "Top rated") == ["Evening"])
            try daemon.qplayOK("rate", "5", "--track", "\(try id(client, title: "Love Song"))")
            try daemon.qplayOK("rate", "4", "--track", "\(try id(client, title: "Morning"))")
            try daemon.qplayOK("rate", "2", "--track", "\(try id(client, title: "Endless Love"))")
            #expect(try titles(client, "Top rated") == ["Love Song", "Morning", "Evening"])
            #expect(try daemon.qplayOK("playlists") == "Top rated  3 tracks  (smart: rating>=4, by rating desc)\n")
            try daemon.qplayOK("rate", "0", "--track", "\(try id(client, title: "Love Song"))")
            #expect(try titles(client, "Top rated") == ["Morning", "Evening"])

            // Sort, order and limit; saving again replaces the query.
            try daemon.qplayOK("smart", "Top rated", "--where", "rating>0", "--sort", "rating", "--order", "asc", "--limit", "2")
            #expect(try titles(client, "Top rated") == ["Endless Love", "Morning"])
            try client.ok("smart_save", ["name": "Loves", "where": [["property": "title", "op": "contains", "value": "love"]], "sort": "title"])
            #expect(try titles(client, "Loves") == ["Endless Love", "Love Song", "Love Theme"])
            try client.ok("smart_save", ["name": "Unplayed", "where": [["property": "plays", "op": "eq", "value": 0]], "limit": 3])
            #expect(try titles(client, "Unplayed").count == 3)
            #expect(code(try client.request("smart_save", ["name": "x", "sort": "mood"])) == "bad_request")
            #expect(code(try client.request("smart_save", ["name": "x", "limit": 0])) == "bad_request")
            #expect(try daemon.qplay("smart", "x", "--where", "rating~4").status != 0)

            // Loaded like any playlist.
            let loaded = try client.ok("playlist_load", ["name": "Top rated"])
            #expect(loaded["added"] as? Int == 2 && loaded["missing"] as? Int == 0)
            let queue = try client.ok("queue")["entries"] as? [[String: Any]] ?? []
            #expect(queue.compactMap { ($0["track"] as? [String: Any])?["title"] as? String } == ["Endless Love", "Morning"])

            // Read-only to edits, and a playlist file's name is not taken over.
            for (command, args) in [
                ("playlist_add", ["name": "Loves", "ids": [1]] as [String: Any]),
                ("playlist_remove", ["name": "Loves", "positions": [0]]),
                ("playlist_move", ["name": "Loves", "from": 0, "to": 1]),
                ("playlist_save", ["name": "Loves", "mode": "replace"]),
                ("playlist_save", ["name": "Loves", "mode": "append"]),
            ] {
                #expect(code(try client.request(command, args)) == "bad_request", "\(command)")
            }
            #expect(code(try client.request("playlist_save", ["name": "Loves"])) == "exists")
            try client.ok("playlist_save", ["name": "Plain"])
            #expect(code(try client.request("smart_save", ["name": "Plain", "where": []])) == "exists")

            // MPD clients list, read and load it, and change nothing.
            let raw = try mpd.client()
            let playlists = try raw.command("listplaylists").filter { $0.hasPrefix("playlist: ") }
            #expect(playlists == ["playlist: Loves", "playlist: Plain", "playlist: Top rated", "playlist: Unplayed"])
            #expect(try raw.command("listplaylist Loves").filter { $0.hasPrefix("file: ") }.count == 3)
            #expect(try raw.command("listplaylistinfo Loves").contains("Title: Love Theme"))
            try raw.command("clear")
            #expect(try raw.command("load Loves 1:2") == ["OK"])
            #expect(try raw.command("playlistinfo").contains("Title: Love Song"))
            for line in ["playlistadd Loves \"Various/Straße.mp3\"", "playlistclear Loves", "playlistdelete Loves 0",
                         "playlistmove Loves 0 1", "rm Loves", "rename Loves Other", "save Loves replace"] {
                let answer = try raw.command(line)
                #expect(answer.last?.hasPrefix("ACK [4@0]") == true, "\(line): \(answer)")
            }
            #expect(try titles(client, "Loves").count == 3)

            // qplay's own clients may rename and delete it.
            try client.ok("playlist_rename", ["name": "Loves", "to": "Love"])
            #expect(FileManager.default.fileExists(atPath: folder + "/Love.smart"))
            try client.ok("playlist_delete", ["name": "Love"])
            listed = try client.ok("playlist_list")["playlists"] as? [[String: Any]] ?? []
            #expect(listed.compactMap { $0["name"] as? String } == ["Plain", "Top rated", "Unplayed"])

            // A file that holds no rule is a clear error, and the others still list.
            try Data("{\"where\": 5}".utf8).write(to: URL(fileURLWithPath: folder + "/Broken.smart"))
            let broken = try client.request("playlist_show", ["name": "Broken"])
            #expect(code(broken) == "unavailable", "\(broken)")
            #expect(try client.ok("playlist_show", ["name": "Plain"])["entries"] != nil)
            listed = try client.ok("playlist_list")["playlists"] as? [[String: Any]] ?? []
            let entry = listed.first { $0["name"] as? String == "Broken" }
            #expect(entry?["smart"] as? Bool == true && entry?["tracks"] as? Int == 0 && entry?["rule"] == nil, "\(listed)")
            #expect(listed.count == 4)
        }
    }
}
