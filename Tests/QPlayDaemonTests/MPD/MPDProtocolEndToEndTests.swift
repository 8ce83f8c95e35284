import Foundation
import QPlayTestSupport
import Testing

/// qplayd's MPD frontend over raw sockets: the shapes of MPD 0.23's answers, ACK codes
/// and indices, command lists, tagtypes (docs/MPD.md).
@Suite("End to end: MPD protocol", .timeLimit(.minutes(3)))
struct MPDProtocolEndToEndTests {
    @Test func greetingStatusAndCurrentSongHaveMPDsShapes() throws {
        try withMPDDaemon { mpd in
            let client = try mpd.client()
            #expect(client.greeting == "OK MPD 0.23.0")
            let viaSocket = try MPDRawClient(path: mpd.socketPath)
            #expect(viaSocket.greeting == "OK MPD 0.23.0")
            #expect(try viaSocket.command("ping") == ["OK"])

            let stopped = try client.command("status")
            #expect(
                stopped.map { String($0.prefix(while: { $0 != ":" })) } == [
                    "volume", "repeat", "random", "single", "consume", "partition", "playlist", "playlistlength",
                    "mixrampdb", "state", "OK",
                ], "\(stopped)")
            #expect(stopped.contains("state: stop"))
            #expect(stopped.contains("partition: default"))

            #expect(try client.command("add \"Test Tones/Love Songs\"") == ["OK"])
            let afterAdd = try client.fields("status")
            #expect(afterAdd["state"] == "stop", "MPD's add never starts playback")
            #expect(afterAdd["playlistlength"] == "3")
            let addedID = try client.fields("addid \"Various/Straße.mp3\" 0")
            #expect(addedID["Id"] != nil)
            let list = try client.command("playlistinfo")
            #expect(list.filter { $0.hasPrefix("file: ") }.first == "file: Various/Straße.mp3", "addid at position 0")
            #expect(list.filter { $0.hasPrefix("Pos: ") } == ["Pos: 0", "Pos: 1", "Pos: 2", "Pos: 3"])

            #expect(try client.command("play 1") == ["OK"])
            let playing = try client.fields("status")
            #expect(playing["state"] == "play")
            #expect(playing["song"] == "1")
            #expect(playing["nextsong"] == "2")
            for key in ["songid", "time", "elapsed", "bitrate", "duration", "audio", "nextsongid"] {
                #expect(playing[key] != nil, "status while playing has \(key): \(playing)")
            }
            #expect(playing["elapsed"].map { $0.split(separator: ".").last?.count == 3 } == true)
            let song = try client.command("currentsong")
            #expect(song.first == "file: Test Tones/Love Songs/01 Love Song.mp3", "\(song)")
            #expect(song.contains("Title: Love Song"))
            #expect(song.contains("Pos: 1"))
            #expect(song.contains { $0.hasPrefix("Last-Modified: ") && $0.hasSuffix("Z") })
            #expect(song.contains { $0.hasPrefix("duration: ") })
            #expect(song.contains("Id: \(playing["songid"] ?? "?")"))

            // The list as written before is not served again after an edit.
            #expect(try client.command("delete 0") == ["OK"])
            let edited = try client.command("playlistinfo")
            #expect(edited.filter { $0.hasPrefix("file: ") }.first == "file: Test Tones/Love Songs/01 Love Song.mp3")
            #expect(edited.filter { $0.hasPrefix("Pos: ") } == ["Pos: 0", "Pos: 1", "Pos: 2"])
            #expect(try client.command("playlistinfo 1:2").filter { $0.hasPrefix("Pos: ") } == ["Pos: 1"])
        }
    }

    /// `decoders` lists the format table's rows in its order, each under its plugin name
    /// with its suffixes, as MPD 0.23 prints its plugins.
    @Test func decodersListTheFormatsWithTheirSuffixes() throws {
        try withMPDDaemon { mpd in
            let client = try mpd.client()
            #expect(
                try client.command("decoders") == [
                    "plugin: mp3", "suffix: mp1", "suffix: mp2", "suffix: mp3", "plugin: flac", "suffix: flac",
                    "plugin: vorbis", "suffix: oga", "suffix: ogg", "plugin: opus", "suffix: opus",
                    "plugin: ffmpeg", "suffix: aac", "suffix: m4a", "suffix: m4b", "suffix: mp4", "suffix: wav",
                    "suffix: aif", "suffix: aifc", "suffix: aiff", "suffix: wv", "OK",
                ])
        }
    }

    @Test func errorsAreMPDsACKsWithTheirIndex() throws {
        try withMPDDaemon { mpd in
            let client = try mpd.client()
            #expect(try client.command("frobnicate") == ["ACK [5@0] {} unknown command \"frobnicate\""])
            #expect(try client.command("status 1") == ["ACK [2@0] {status} wrong number of arguments for \"status\""])
            #expect(try client.command("delete 99") == ["ACK [2@0] {delete} Bad song index"])
            #expect(try client.command("deleteid 99") == ["ACK [50@0] {deleteid} No such song"])
            #expect(try client.command("repeat 2") == ["ACK [2@0] {repeat} Boolean (0/1) expected: 2"])
            #expect(try client.command("add nothing/here") == ["ACK [50@0] {add} No such directory"])
            #expect(try client.command("idle xyz") == ["ACK [2@0] {idle} Unrecognized idle event: xyz"])
            #expect(try client.command("load mylist") == ["ACK [50@0] {load} No such playlist"])
            #expect(try client.command("ping \"unbalanced") == ["ACK [5@0] {} Missing closing '\"'"])
            #expect(try client.command("ping") == ["OK"], "the connection still serves")
            #expect(try client.command("password any") == ["ACK [3@0] {password} incorrect password"], "none is set")

            // A list runs up to its first failure, whose ACK names its index.
            try client.send("command_list_ok_begin\nping\nstatus\nfrobnicate\nping\ncommand_list_end")
            let listed = try client.readAnswer()
            #expect(listed.first == "list_OK")
            #expect(listed.filter { $0 == "list_OK" }.count == 2)
            #expect(listed.last == "ACK [5@2] {} unknown command \"frobnicate\"")
            try client.send("command_list_begin\nsetvol 40\nrepeat 1\ncommand_list_end")
            #expect(try client.readAnswer() == ["OK"])
            let status = try client.fields("status")
            #expect(status["volume"] == "40")
            #expect(status["repeat"] == "1")
        }
    }

    @Test func tagtypesChooseTheTagsSongsShow() throws {
        try withMPDDaemon { mpd in
            let client = try mpd.client()
            let all = try client.command("tagtypes")
            #expect(all.contains("tagtype: Artist") && all.contains("tagtype: Title") && all.contains("tagtype: Genre"))
            try client.command("add \"Test Tones/Love Songs/01 Love Song.mp3\"")
            #expect(try client.command("tagtypes clear") == ["OK"])
            #expect(try client.command("tagtypes") == ["OK"])
            let bare = try client.command("playlistinfo")
            #expect(!bare.contains { $0.hasPrefix("Artist: ") || $0.hasPrefix("Title: ") }, "\(bare)")
            #expect(bare.contains { $0.hasPrefix("file: ") } && bare.contains { $0.hasPrefix("Time: ") })
            #expect(try client.command("tagtypes enable artist ArtistSort") == ["OK"])
            let artistOnly = try client.command("playlistinfo")
            #expect(artistOnly.contains("Artist: Test Tones"))
            #expect(!artistOnly.contains { $0.hasPrefix("Title: ") })
            #expect(try client.command("tagtypes enable Bogus") == ["ACK [2@0] {tagtypes} Unknown tag type: Bogus"])
            #expect(try client.command("tagtypes all") == ["OK"])
            #expect(try client.command("playlistinfo").contains("Title: Love Song"))
            // Another connection has its own tag types.
            #expect(try mpd.client().command("tagtypes").count == all.count)
        }
    }

    @Test func searchFoldsFindIsExactAndListGroups() throws {
        try withMPDDaemon { mpd in
            let client = try mpd.client()
            let searched = try client.command("search title love").filter { $0.hasPrefix("file: ") }
            #expect(searched.count == 3, "\(searched)")
            #expect(try client.command("find title love").filter { $0.hasPrefix("file: ") }.isEmpty, "find is case-sensitive")
            #expect(try client.command("find title \"Love Song\"").filter { $0.hasPrefix("file: ") }.count == 1)
            let accents = try client.command("search artist chloe").filter { $0.hasPrefix("file: ") }
            #expect(accents == ["file: Chloé Dubois/Café Crème.mp3"], "qplay's folding ignores accents")
            let expression = try client.command("find \"((artist == 'Test Tones') AND (title contains 'Love'))\"")
            #expect(expression.filter { $0.hasPrefix("file: ") }.count == 3)
            let albums = try client.command("list album artist \"Test Tones\"")
            #expect(albums == ["Album: Day Cycle", "Album: Love Songs", "OK"])
            let grouped = try client.command("list album group artist")
            #expect(grouped.firstIndex(of: "Artist: Test Tones").map { grouped[$0 + 1] } == "Album: Day Cycle")
            let counted = try client.fields("count artist \"Test Tones\"")
            #expect(counted["songs"] == "5")
            #expect(try client.command("searchadd title love") == ["OK"])
            #expect(try client.fields("status")["playlistlength"] == "3")
            #expect(try client.fields("status")["state"] == "stop")
            let top = try client.command("lsinfo")
            #expect(top.contains("directory: Test Tones"))
            #expect(top.contains("file: untagged.mp3"))
            #expect(try client.command("lsinfo nowhere") == ["ACK [50@0] {lsinfo} No such directory"])
            let everything = try client.command("listall").filter { $0.hasPrefix("file: ") }
            #expect(everything.count == SampleCatalog.allFiles.count, "\(everything)")
        }
    }
}
