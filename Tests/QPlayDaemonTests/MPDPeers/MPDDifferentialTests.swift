import Foundation
import QPlayTestSupport
import Testing

/// The same script of protocol lines to the real MPD 0.23 and to the server under test,
/// over the same music folder; the responses must be equal after
/// `MPDResponseNormalizer`, except for the differences listed in `allowed`, each with
/// its reason (also in docs/MPD.md). An allowed difference that no longer shows fails
/// too, so the list stays true.
@Suite(.serialized, .tags(.peer), .group(.peer))
struct MPDDifferentialTests {
    /// One request (or a command list: lines joined by "\n", answered once).
    static let script: [String] = [
        "status",
        "currentsong",
        "stats",
        "add \"Peer Tones/Long Player/01 First Long.mp3\"",
        "add \"Test Tones/Day Cycle/01 Morning.mp3\"",
        "addid \"Test Tones/Day Cycle/02 Evening.mp3\"",
        "addid \"Various/Straße.mp3\" 1",
        "add \"Peer Tones/Long Player/02 Second Long.mp3\"",
        "add \"Formats/Gapless Album/01 Dawn.flac\"",
        "add \"no/such/file.mp3\"",
        "idle playlist",
        "playlistinfo",
        "playlistinfo 1:3",
        "playlistinfo 2",
        "playlistinfo 9",
        "playlistid {id 2}",
        "playlistid 99999",
        "playlist",
        "play 0",
        "pause 1",
        "status",
        "currentsong",
        "move 1 3",
        "move 0:2 4",
        "playlistinfo",
        "delete 4:6",
        "moveid {id 2} 0",
        "deleteid {id 1}",
        "deleteid 99999",
        "playlist",
        "plchanges 0",
        "plchangesposid 0",
        "status",
        "find Artist \"Test Tones\"",
        "find Artist \"Test Tones\" Album \"Day Cycle\"",
        "find \"(Artist == \\\"Test Tones\\\")\"",
        "find \"(Album == 'Love Songs')\" sort Title",
        "find Artist \"test tones\"",
        "find Title \"Love\"",
        "search Title love",
        "search \"(Title contains \\\"LOVE\\\")\"",
        "search \"((Artist == 'Test Tones') AND (!(Title contains 'love')))\"",
        "search any café",
        "find Nonsense x",
        "find \"(Artist == 'unterminated\"",
        "list Artist",
        "list Album",
        "list Album Artist \"Test Tones\"",
        "list Album group AlbumArtist",
        "list Genre",
        "list Date",
        "count Artist \"Test Tones\"",
        "count Genre Pop",
        "lsinfo",
        "lsinfo \"Test Tones/Love Songs\"",
        "lsinfo \"no/such\"",
        "listall \"Test Tones\"",
        "listallinfo \"Various\"",
        "findadd Album \"Love Songs\"",
        "searchadd Title \"evening\"",
        "playlist",
        "command_list_begin\nsetvol 40\nrepeat 1\nstatus\ncommand_list_end",
        "command_list_ok_begin\nping\ngetvol\ncommand_list_end",
        "command_list_begin\nping\nfoo\nping\ncommand_list_end",
        "command_list_ok_begin\nrandom 1\nplay 99\nrandom 0\ncommand_list_end",
        "status",
        "foo",
        "play 1 2",
        "add",
        "seek 1",
        "play x",
        "setvol 101",
        "setvol -1",
        "seekcur +x",
        "find \"Artist",
        "status extra",
        "repeat 0",
        "random 1",
        "single 1",
        "consume 1",
        "status",
        "random 0",
        "single 0",
        "consume 0",
        "tagtypes clear",
        "tagtypes enable Artist Title",
        "playlistinfo 0",
        "tagtypes all",
        "tagtypes",
        "playlistinfo 0",
        "replay_gain_status",
        "outputs",
        "urlhandlers",
        "commands",
        "notcommands",
        "decoders",
        "clear",
        "status",
        "playlistinfo",
        "ping",
    ]

    /// The differences that remain, each with its reason (docs/MPD.md lists the same).
    static let allowed: [MPDTranscriptComparison.Allowed] = [
        .init(
            request: nil, leeway: .fields(["duration"]),
            reason: "qplay gives the decoded length without the encoder's delay and padding (libmpg123's gapless"
                + " trim: 3.000 for a 3 s MP3 where MPD says 3.030) and rounds to the millisecond where MPD cuts"
                + " (2.268 against 2.267); the whole seconds of Time and status time agree"),
        .init(
            request: nil, leeway: .order,
            reason: "tags of a FLAC file: MPD writes them in the file's comment order, qplay in one fixed order"
                + " (Artist, AlbumArtist, Title, Album, Track, Date, Genre, Disc); clients read tags by name"),
        .init(
            request: "find \"(Album == 'Love Songs')\" sort Title", leeway: .fields(["Format"]),
            reason: "MPD 0.23 leaves Format out of sorted find results; qplay writes it for every song"),
        .init(
            request: "lsinfo", leeway: .fields(["Last-Modified"]),
            reason: "a folder's Last-Modified: MPD gives the folder's own time, qplay (which indexes files, not"
                + " folders) its newest file's; they differ once a folder changed after its files (the test's folders"
                + " are dated after their files)"),
        .init(
            request: "listallinfo \"Various\"", leeway: .fields(["Last-Modified"]),
            reason: "the folder's own Last-Modified, as for lsinfo"),
        .init(
            request: "tagtypes", leeway: .wholeResponse,
            reason: "qplay has eight tags (Artist, AlbumArtist, Title, Album, Track, Date, Genre, Disc) and lists"
                + " those; MPD lists every tag it knows (sort tags, Composer, MusicBrainz ids, …)"),
        .init(
            request: "outputs", leeway: .fields(["outputname", "plugin"]),
            reason: "qplay's one output is the sink it was started with (here the test's file: capture); MPD's is"
                + " the test's null output"),
        .init(
            request: "urlhandlers", leeway: .wholeResponse,
            reason: "qplay's streams are HTTP: it names http:// and https://; MPD names every scheme its input"
                + " plugins take"),
        .init(
            request: "commands", leeway: .wholeResponse,
            reason: "qplay implements the commands MPD clients use (and lists noidle, which MPD leaves out);"
                + " partitions, outputs switching, mounts, messages, priorities are not there"),
        .init(
            request: "decoders", leeway: .wholeResponse,
            reason: "qplay's decoders (libmpg123 for MP1/2/3, libFLAC, libvorbisfile, libopusfile, FFmpeg) against MPD's"
                + " plugin list"),
    ]

    @Test(arguments: MPDPeerKind.tested)
    func sameScriptSameAnswers(_ kind: MPDPeerKind) throws {
        let (expected, actual) = try MPDPeerScript.runOnMPDAnd(kind, Self.script)
        #expect(actual.greeting == expected.greeting, "\(kind): \(actual.greeting)")
        try MPDPeerScript.expectSameAnswers(
            Self.script, expected: expected.responses, actual: actual.responses, allowed: Self.allowed, kind: kind,
            transcripts: "")
    }
}
