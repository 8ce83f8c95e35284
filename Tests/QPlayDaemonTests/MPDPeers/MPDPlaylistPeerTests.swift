import Foundation
import QPlayTestSupport
import Testing

/// Stored playlists against the real MPD 0.23: the same script to both servers, each on
/// its own copy of one playlist folder; the real mpc's playlist commands; and one folder
/// written by one server and read by the other (docs/MPD.md, Stored playlists).
@Suite(.serialized, .tags(.peer), .group(.peer))
struct MPDPlaylistPeerTests {
    static let script: [String] = [
        "listplaylists",
        "listplaylist external",
        "listplaylistinfo external",
        "add \"Test Tones/Day Cycle/01 Morning.mp3\"",
        "add \"Chloé Dubois/Café Crème.mp3\"",
        "add \"Various/Straße.mp3\"",
        "save mix",
        "save mix",
        "save \"a/b\"",
        "save \"\"",
        "save mix bogus",
        "save",
        "listplaylists",
        "listplaylist mix",
        "listplaylistinfo mix",
        "listplaylist nosuch",
        "listplaylistinfo \"a/b\"",
        "clear",
        "load mix",
        "playlist",
        "load mix 1:3 0",
        "playlist",
        "load mix 2",
        "load mix 5:9",
        "load mix 0:1 6",
        "load mix 0:1 99",
        "load mix 0:1 +0",
        "load mix 0:1 x",
        "load mix x",
        "load nosuch",
        "load external",
        "load external 1:3",
        "playlist",
        "playlistadd mix \"Test Tones/Love Songs\"",
        "playlistadd mix untagged.mp3 0",
        "playlistadd mix untagged.mp3 99",
        "playlistadd mix untagged.mp3 x",
        "playlistadd mix nosuch.mp3",
        "playlistadd fresh \"Test Tones/Day Cycle/02 Evening.mp3\"",
        "playlistadd \"a/b\" untagged.mp3",
        "playlistadd mix",
        "listplaylist mix",
        "playlistdelete mix 1",
        "playlistdelete mix 2:4",
        "playlistdelete mix 99",
        "playlistdelete mix 1:1",
        "playlistdelete mix x",
        "playlistdelete nosuch 0",
        "playlistdelete \"a/b\" 0",
        "listplaylist mix",
        "playlistmove mix 0 2",
        "playlistmove mix 0 99",
        "playlistmove mix 1 1",
        "playlistmove mix -1 0",
        "playlistmove nosuch 0 1",
        "listplaylist mix",
        "playlistdelete external 0",
        "listplaylist external",
        "rename fresh mix",
        "rename fresh renamed",
        "rename nosuch other",
        "rename renamed \"a/b\"",
        "rename \"a/b\" other",
        "listplaylists",
        "playlistclear renamed",
        "playlistclear nosuch",
        "playlistclear \"a/b\"",
        "listplaylist renamed",
        "rm renamed",
        "rm renamed",
        "rm \"a/b\"",
        "listplaylists",
        "idle stored_playlist",
        "status",
    ]

    static let allowed: [MPDTranscriptComparison.Allowed] = [
        .init(
            request: nil, leeway: .fields(["duration"]),
            reason: "qplay gives the decoded length without the encoder's delay and padding (as in MPDDifferentialTests)")
    ]

    /// Written into each server's folder before it starts: a line that names no file, a
    /// comment, a blank line, CRLF line ends and an absolute path inside the music folder.
    static func externalPlaylist(music: String) -> String {
        "Test Tones/Day Cycle/02 Evening.mp3\r\n# a comment\r\n\r\nno/such/file.mp3\r\n\(music)/untagged.mp3\r\nVarious/Straße.mp3\r\n"
    }

    @Test(arguments: MPDPeerKind.tested)
    func sameScriptSameAnswers(_ kind: MPDPeerKind) throws {
        let (expected, actual) = try MPDPeerScript.runOnMPDAnd(kind, Self.script, playlists: Self.playlistFolder)
        try MPDPeerScript.expectSameAnswers(
            Self.script, expected: Self.listingsComparable(expected.responses),
            actual: Self.listingsComparable(actual.responses), allowed: Self.allowed, kind: kind, transcripts: "playlist-")
    }

    /// MPD lists the folder in directory order and dates each playlist by its file: the
    /// listings are compared sorted, each date checked for MPD's shape, not its value.
    static func listingsComparable(_ responses: [[String]]) throws -> [[String]] {
        zip(script, responses).map { request, response in
            guard request == "listplaylists" else { return response }
            var pairs: [[String]] = []
            for line in response.dropLast() {
                if line.hasPrefix("playlist: ") {
                    pairs.append([line])
                } else if line.hasPrefix("Last-Modified: "), !pairs.isEmpty {
                    let shaped = line.range(
                        of: #"^Last-Modified: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression) != nil
                    pairs[pairs.count - 1].append(shaped ? "Last-Modified: <date>" : line)
                } else {
                    pairs.append([line])
                }
            }
            return pairs.sorted { $0[0] < $1[0] }.flatMap { $0 } + response.suffix(1)
        }
    }

    private static func playlistFolder(music: String) throws -> TemporaryDirectory {
        let folder = TemporaryDirectory("playlists")
        try folder.write(Array(Self.externalPlaylist(music: music).utf8), to: folder.appending("external.m3u"))
        return folder
    }

    /// mpc's save, lsplaylists, playlist NAME, load and rm give the same output from both.
    @Test func mpcPlaylistCommandsGiveMPDsOutput() throws {
        let library = try peerLibrary()
        defer { library.remove() }
        var outputs: [MPDPeerKind: [[String]]] = [:]
        for kind in MPDPeerKind.tested {
            let folder = TemporaryDirectory("playlists")
            defer { folder.remove() }
            try withPeer(kind, music: library.path.string, playlists: folder.path.string) { peer in
                var lines: [[String]] = []
                try peer.mpcLines("add", "Test Tones/Day Cycle")
                try peer.mpcLines("add", "Various/Straße.mp3")
                lines.append(try peer.mpcLines("save", "Évening mix"))
                lines.append(try peer.mpcLines("lsplaylists"))
                lines.append(try peer.mpcLines("-f", "%file%", "playlist", "Évening mix"))
                lines.append(try peer.mpcLines("-f", "%artist% - %title%", "playlist", "Évening mix"))
                try peer.mpcLines("clear")
                try peer.mpcLines("load", "Évening mix")
                lines.append(try peer.mpcLines("-f", "%file%", "playlist"))
                let again = try peer.mpc(arguments: ["save", "Évening mix"])
                lines.append([String(again.status), again.stderr.trimmingCharacters(in: .whitespacesAndNewlines)])
                let missing = try peer.mpc(arguments: ["load", "nothing"])
                lines.append([String(missing.status), missing.stderr.trimmingCharacters(in: .whitespacesAndNewlines)])
                try peer.mpcLines("rm", "Évening mix")
                lines.append(try peer.mpcLines("lsplaylists"))
                outputs[kind] = lines
            }
        }
        #expect(outputs[.mpd]?.count == 8)
        #expect(outputs[.mpd]?[1] == ["Évening mix"])
        #expect(outputs[.qplayd] == outputs[.mpd])
        #expect(outputs[.mpd]?[2] == ["Test Tones/Day Cycle/01 Morning.mp3", "Test Tones/Day Cycle/02 Evening.mp3", "Various/Straße.mp3"])
    }

    /// One folder, two servers: what MPD saved qplayd lists and loads, and what qplayd
    /// saved (with its #EXTINF lines) MPD lists and loads.
    @Test func oneFolderServesBoth() throws {
        let library = try peerLibrary()
        defer { library.remove() }
        let folder = TemporaryDirectory("playlists")
        defer { folder.remove() }
        let fromMPD = ["Test Tones/Love Songs/02 Endless Love.mp3", "Chloé Dubois/Café Crème.mp3"]
        let fromQPlay = ["Various/夜の歌.mp3", "Test Tones/Day Cycle/01 Morning.mp3"]
        try withPeer(.mpd, music: library.path.string, playlists: folder.path.string) { mpd in
            for path in fromMPD { try mpd.mpcLines("add", path) }
            try mpd.mpcLines("save", "by mpd")
        }
        try withPeer(.qplayd, music: library.path.string, playlists: folder.path.string) { qplayd in
            #expect(try qplayd.mpcLines("lsplaylists") == ["by mpd"])
            #expect(try qplayd.mpcLines("-f", "%file%", "playlist", "by mpd") == fromMPD)
            try qplayd.mpcLines("load", "by mpd")
            #expect(try qplayd.mpcLines("-f", "%file%", "playlist") == fromMPD)
            try qplayd.mpcLines("clear")
            for path in fromQPlay { try qplayd.mpcLines("add", path) }
            try qplayd.mpcLines("save", "by qplay")
        }
        let written = try String(contentsOfFile: folder.appending("by qplay.m3u").string, encoding: .utf8)
        #expect(written.hasPrefix("#EXTM3U\n#EXTINF:3,"), "\(written)")
        try withPeer(.mpd, music: library.path.string, playlists: folder.path.string) { mpd in
            #expect(try mpd.mpcLines("lsplaylists").sorted() == ["by mpd", "by qplay"])
            #expect(try mpd.mpcLines("-f", "%file%", "playlist", "by qplay") == fromQPlay)
            try mpd.mpcLines("load", "by qplay")
            #expect(try mpd.mpcLines("-f", "%file%", "playlist") == fromQPlay)
        }
    }

    /// What MPD 0.23 has not: `save NAME MODE` (MPD 0.24's), `.m3u8` files and names with
    /// control characters refused; and `stored_playlist` waking a client idle on another
    /// connection.
    @Test func saveModesEightBitFilesNamesAndIdle() throws {
        let library = try peerLibrary()
        defer { library.remove() }
        let folder = TemporaryDirectory("playlists")
        defer { folder.remove() }
        try folder.write(Array("Various/Straße.mp3\ngone.mp3\n".utf8), to: folder.appending("eight.m3u8"))
        try withPeer(.qplayd, music: library.path.string, playlists: folder.path.string) { qplayd in
            let client = try qplayd.client()
            let idle = try qplayd.client()
            try idle.send("idle stored_playlist")
            #expect(try client.mpd("listplaylist eight") == ["file: Various/Straße.mp3", "file: gone.mp3", "OK"])
            #expect(try client.mpd("add \"Test Tones/Day Cycle/01 Morning.mp3\"") == ["OK"])
            #expect(try client.mpd("save eight append") == ["OK"])
            #expect(try idle.mpdResponse() == ["changed: stored_playlist", "OK"])
            #expect(
                try client.mpd("listplaylist eight")
                    == ["file: Various/Straße.mp3", "file: gone.mp3", "file: Test Tones/Day Cycle/01 Morning.mp3", "OK"])
            #expect(try client.mpd("save eight replace") == ["OK"])
            #expect(try client.mpd("listplaylist eight") == ["file: Test Tones/Day Cycle/01 Morning.mp3", "OK"])
            #expect(!FileManager.default.fileExists(atPath: folder.appending("eight.m3u").string))
            #expect(try client.mpd("save nothing append") == ["ACK [50@0] {save} No such playlist"])
            #expect(try client.mpd("save made create") == ["OK"])
            #expect(try client.mpd("save made create") == ["ACK [56@0] {save} Playlist already exists"])
            #expect(try client.mpd("save \"tab\tname\"") == ["ACK [2@0] {save} Bad playlist name"])
            #expect(try client.mpd("save made sideways") == ["ACK [2@0] {save} wrong number of arguments for \"save\""])
            // `load` of a file with a line naming no track adds the others.
            #expect(try client.mpd("playlistadd eight gone.mp3") == ["ACK [50@0] {playlistadd} No such directory"])
            try folder.write(Array("gone.mp3\nVarious/Straße.mp3\n".utf8), to: folder.appending("eight.m3u8"))
            #expect(try client.mpd("clear") == ["OK"])
            #expect(try client.mpd("load eight") == ["OK"])
            #expect(try client.mpd("playlist") == ["0:file: Various/Straße.mp3", "OK"])
        }
    }
}

/// python-mpd2's stored-playlist calls: one script to the real MPD 0.23 and to the server
/// under test, each with an empty folder of its own; python-mpd2 parses every answer, and
/// what it returns (errors as `CommandError` text) must be the same from both, but for the
/// playlists' dates (their shape kept) and the tracks' decoded lengths.
extension MPDPlaylistPeerTests {
    static let pythonScript = #"""
        out = {}
        c = mpd.MPDClient()
        c.timeout = 20
        c.connect(HOST, PORT)
        def error(call):
            try:
                call()
                return None
            except mpd.CommandError as failure:
                return str(failure)
        c.clear()
        c.add("Test Tones/Day Cycle/01 Morning.mp3")
        c.add("Test Tones/Day Cycle/02 Evening.mp3")
        out["save"] = c.save("mix")
        out["save_again"] = error(lambda: c.save("mix"))
        c.clear()
        c.add("Various/Straße.mp3")
        c.save("other")
        out["listplaylists"] = c.listplaylists()
        out["listplaylist"] = c.listplaylist("mix")
        out["listplaylistinfo"] = c.listplaylistinfo("mix")
        out["playlistadd"] = c.playlistadd("mix", "Test Tones/Love Songs")
        c.playlistadd("mix", "Various/Ночной город.mp3", 1)
        c.playlistadd("fresh", "Various/夜の歌.mp3")
        out["after_add"] = c.listplaylist("mix")
        out["playlistdelete"] = c.playlistdelete("mix", 2)
        out["after_delete"] = c.listplaylist("mix")
        out["playlistmove"] = c.playlistmove("mix", 0, 3)
        out["after_move"] = c.listplaylist("mix")
        out["rename"] = c.rename("mix", "Café mix")
        out["rename_onto"] = error(lambda: c.rename("fresh", "other"))
        out["after_rename"] = sorted(p["playlist"] for p in c.listplaylists())
        c.clear()
        out["load_range"] = c.load("Café mix", (1, 3))
        out["after_load"] = c.playlist()
        c.load("Café mix", (4,))
        out["after_load_open"] = c.playlist()
        c.load("fresh")
        out["after_load_all"] = c.playlist()
        out["playlistclear"] = c.playlistclear("Café mix")
        out["after_clear"] = c.listplaylist("Café mix")
        out["after_clear_info"] = c.listplaylistinfo("Café mix")
        out["rm"] = c.rm("Café mix")
        out["after_rm"] = sorted(p["playlist"] for p in c.listplaylists())
        out["load_missing"] = error(lambda: c.load("nosuch"))
        out["listplaylist_missing"] = error(lambda: c.listplaylist("nosuch"))
        out["rm_missing"] = error(lambda: c.rm("Café mix"))
        out["playlistdelete_bad"] = error(lambda: c.playlistdelete("fresh", 5))
        out["playlistmove_bad"] = error(lambda: c.playlistmove("fresh", 0, 9))
        out["load_bad_range"] = error(lambda: c.load("fresh", (3, 1)))
        out["save_bad_name"] = error(lambda: c.save("a/b"))
        c.close()
        print(json.dumps(out))
        """#

    @Test(arguments: MPDPeerKind.tested)
    func pythonMPDPlaylistCalls(_ kind: MPDPeerKind) throws {
        let library = try peerLibrary()
        defer { library.remove() }
        // The reference and the server under test, each on an empty folder of its own.
        var results: [[String: Any]] = []
        for server in [MPDPeerKind.mpd, kind] {
            let folder = TemporaryDirectory("playlists")
            defer { folder.remove() }
            try withPeer(server, music: library.path.string, playlists: folder.path.string) { peer in
                let output = try peer.python(Self.pythonScript)
                let parsed = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
                results.append(try #require(parsed, "\(server): \(output)"))
            }
        }
        let expected = try Self.pythonComparable(results[0])
        let actual = try Self.pythonComparable(results[1])
        let differing = Set(expected.keys).union(actual.keys).sorted().filter { expected[$0] != actual[$0] }
        let report = differing.map { "\($0):\n  MPD:    \(expected[$0] ?? "-")\n  \(kind): \(actual[$0] ?? "-")" }
        #expect(differing.isEmpty, "\(kind) answers python-mpd2 unlike MPD:\n\(report.joined(separator: "\n"))")

        // What MPD answers, so the comparison cannot pass on two servers wrong alike.
        let result = results[1]
        let loveSongs = ["01 Love Song.mp3", "02 Endless Love.mp3", "03 Love Theme.mp3"].map { "Test Tones/Love Songs/\($0)" }
        #expect(result["save_again"] as? String == "[56@0] {save} Playlist already exists", "\(kind): \(result)")
        #expect(
            result["listplaylist"] as? [String] == ["Test Tones/Day Cycle/01 Morning.mp3", "Test Tones/Day Cycle/02 Evening.mp3"],
            "\(kind): \(result)")
        let info = result["listplaylistinfo"] as? [[String: String]] ?? []
        #expect(info.map { $0["title"] } == ["Morning", "Evening"] && info.allSatisfy { $0["artist"] == "Test Tones" }, "\(kind): \(info)")
        #expect(
            result["after_move"] as? [String]
                == ["Various/Ночной город.mp3", loveSongs[0], loveSongs[1], "Test Tones/Day Cycle/01 Morning.mp3", loveSongs[2]],
            "\(kind): \(result)")
        #expect(result["after_rename"] as? [String] == ["Café mix", "fresh", "other"], "\(kind): \(result)")
        #expect(result["after_load"] as? [String] == loveSongs[..<2].map { "file: \($0)" }, "\(kind): \(result)")
        #expect(result["after_load_open"] as? [String] == loveSongs.map { "file: \($0)" }, "\(kind): \(result)")
        #expect((result["after_clear"] as? [Any])?.isEmpty == true, "\(kind): \(result)")
        #expect(result["after_rm"] as? [String] == ["fresh", "other"], "\(kind): \(result)")
        #expect(result["load_missing"] as? String == "[50@0] {load} No such playlist", "\(kind): \(result)")
    }

    /// Each result as sorted-key JSON text; `last-modified` of a playlist as its shape,
    /// `duration` of a track dropped (qplay gives the decoded length without the encoder's
    /// delay and padding, as in MPDDifferentialTests).
    static func pythonComparable(_ result: [String: Any]) throws -> [String: String] {
        func normalised(_ value: Any) -> Any {
            if let list = value as? [Any] { return list.map(normalised) }
            guard var fields = value as? [String: Any] else { return value }
            if fields["playlist"] != nil, let date = fields["last-modified"] as? String {
                let shaped = date.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression) != nil
                fields["last-modified"] = shaped ? "<date>" : date
            }
            if fields["file"] != nil, let duration = fields["duration"] as? String {
                let shaped = duration.range(of: #"^\d+\.\d{3}$"#, options: .regularExpression) != nil
                fields["duration"] = shaped ? "<seconds>" : duration
            }
            return fields
        }
        var texts: [String: String] = [:]
        for (key, value) in result {
            let data = try JSONSerialization.data(
                withJSONObject: [normalised(value)], options: [.sortedKeys, .fragmentsAllowed])
            texts[key] = String(decoding: data, as: UTF8.self)
        }
        return texts
    }
}
