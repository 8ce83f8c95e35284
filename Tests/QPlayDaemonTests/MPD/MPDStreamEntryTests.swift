import Foundation
import QPlayTestSupport
import Testing

/// A URL entry shows its URL exactly as it was added (docs/MPD.md): `file: http://…`,
/// as MPD shows it, not the `http:/…` a file path would make of it; `urlhandlers` names
/// the schemes `add` takes as streams.
@Suite("MPD: stream entries", .timeLimit(.minutes(1)))
struct MPDStreamEntryTests {
    @Test func aURLEntryShowsItsURL() throws {
        try withMPDDaemon { mpd in
            let client = try mpd.client()
            // Nothing listens on port 9: the stream is contacted only when it plays.
            let url = "http://127.0.0.1:9/radio.mp3"
            #expect(try client.command("add \"\(url)\"") == ["OK"])
            let files = try client.command("playlistinfo").filter { $0.hasPrefix("file: ") }
            #expect(files.last == "file: \(url)", "\(files)")
            #expect(try client.command("urlhandlers") == ["handler: http://", "handler: https://", "OK"])
        }
    }
}
