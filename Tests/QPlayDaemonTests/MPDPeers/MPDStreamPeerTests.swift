import Foundation
import QPlayTestSupport
import Testing

/// A stream as MPD shows it, against the real MPD on the same Icecast mount (fed by
/// ffmpeg, with a station name and an ICY title): `playlistinfo` before playing,
/// `currentsong` and the stream's `status` fields while it plays, line for line.
@Suite(
    .enabled(if: IcecastServer.isInstalled && RealMPDProcess.isInstalled, "needs icecast2, ffmpeg, curl and mpd"),
    .timeLimit(.minutes(3)), .serialized, .tags(.peer), .group(.peer))
struct MPDStreamPeerTests {
    /// What one server answered.
    struct Answers: Equatable, CustomStringConvertible {
        var queued: [String]
        var current: [String]
        var status: [String: String]

        var description: String { "playlistinfo \(queued), currentsong \(current), status \(status)" }
    }

    /// `status` fields a stream decides (the others are the queue's and the player's,
    /// which the MPD differential covers).
    static let streamStatusFields = ["state", "song", "playlistlength", "audio", "duration", "bitrate", "time"]

    @Test func aStreamsFieldsAreMPDs() throws {
        let server = try IcecastServer()
        defer {
            server.stop()
            server.directory.remove()
        }
        try server.start()
        try server.startTone(mount: "/tone.mp3", station: "Peer Radio")
        try server.setTitle("Tone Artist - Sine at 440", mount: "/tone.mp3")
        let music = TemporaryDirectory("mpd-stream-music")
        defer { music.remove() }
        // A file, so neither server takes the folder for a disk that is not mounted.
        try FileManager.default.copyItem(
            atPath: SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3").path.string,
            toPath: music.appending("morning.mp3").string)
        let url = server.url("/tone.mp3")
        var answers: [MPDPeerKind: Answers] = [:]
        for kind in MPDPeerKind.tested {
            try withPeer(kind, music: music.path.string) { peer in
                let client = try peer.client()
                #expect(try client.mpd("add \"\(url)\"") == ["OK"])
                let queued = try client.mpd("playlistinfo")
                #expect(try client.mpd("play") == ["OK"])
                var current: [String] = []
                try waitUntil("\(kind): the ICY title in currentsong", limit: 60) {
                    current = try client.mpd("currentsong")
                    return current.contains { $0.hasPrefix("Title: ") }
                }
                let status = try client.mpdStatus()
                answers[kind] = Answers(
                    queued: queued, current: current,
                    status: status.filter { Self.streamStatusFields.contains($0.key) })
                #expect(status["time"] != nil && status["elapsed"] != nil, "\(kind): \(status)")
            }
        }
        let mpd = try #require(answers[.mpd])
        let qplayd = try #require(answers[.qplayd])
        #expect(qplayd.queued == mpd.queued)
        #expect(qplayd.current == mpd.current)
        #expect(qplayd.status == mpd.status)
        #expect(mpd.current.contains("Name: Peer Radio"), "the reference did not show the station: \(mpd)")
    }
}
