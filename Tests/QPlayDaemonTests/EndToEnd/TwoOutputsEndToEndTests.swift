import Foundation
import QPlayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// qplayd given two outputs (`--output` twice): the capture first, a `pipe:` whose FIFO
/// has no reader (snapserver not running) second. The tone plays whole into the first;
/// status lists both, the pipe `failed` by its name with an `error` event naming it;
/// MPD's `outputs` lists both in order.
@Suite("End to end: two outputs", .timeLimit(.minutes(1)))
struct TwoOutputsEndToEndTests {
    static let tone = ToneFixture(file: "two.mp3", title: "Two", toneHz: 440, seconds: 2, sampleRate: 44100, channels: 2)

    @Test func aPipeWithoutReaderBesideTheCaptureHoldsNothingBack() throws {
        let music = TemporaryDirectory("qplay-two-outputs-music")
        defer { music.remove() }
        _ = try ToneFixtures.generate([Self.tone], in: music)
        try withDaemon(music: music.path.string, start: false) { daemon in
            let fifo = daemon.directory.appending("snapfifo").string
            guard mkfifo(fifo, 0o600) == 0 else { throw LineSocketClient.Failure(description: "mkfifo \(fifo): \(errno)") }
            let port = try FreeTCPPort.probe()
            try daemon.start([
                "--output", "file:\(daemon.capturePath)", "--output", "pipe:\(fifo)", "--mpd", "127.0.0.1:\(port)",
            ])
            try daemon.waitForLibrary()
            let events = try daemon.client()
            try events.ok("subscribe", ["events": ["error"]])
            let control = try daemon.client()
            try control.ok("add", ["paths": [Self.tone.file]])
            let failure = try events.event("error")
            #expect(failure["output"] as? String == "pipe:\(fifo)")
            #expect((failure["reason"] as? String)?.contains("no reader") == true, "\(failure)")
            try waitUntil("the tone plays to its end", limit: 30) { try control.status()["state"] as? String == "stopped" }

            let status = try control.status()
            let outputs = status["outputs"] as? [[String: Any]] ?? []
            #expect(outputs.map { $0["name"] as? String } == ["file:\(daemon.capturePath)", "pipe:\(fifo)"])
            #expect(outputs.map { $0["state"] as? String } == ["ok", "failed"])
            #expect((status["output"] as? [String: Any])?["state"] as? String == "ok")
            #expect(try daemon.capturedSamples().count == Int(Self.tone.seconds) * Self.tone.sampleRate * 2, "the first output lost audio")

            let (mpd, _) = try LineSocketClient.mpd(port: port)
            let listed = try mpd.mpdFields("outputs")
            #expect(listed.filter { $0.key == "outputid" }.map(\.value) == ["0", "1"])
            #expect(listed.filter { $0.key == "outputname" }.map(\.value) == ["file:\(daemon.capturePath)", "pipe:\(fifo)"])
            #expect(listed.filter { $0.key == "plugin" }.map(\.value) == ["file", "pipe"])
            #expect(listed.filter { $0.key == "outputenabled" }.map(\.value) == ["1", "1"])
        }
    }
}
