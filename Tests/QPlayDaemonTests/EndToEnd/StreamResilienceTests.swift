import Foundation
import QPlayTestSupport
import Testing

/// Internet radio when the far side misbehaves, through the real daemon: a real Icecast
/// on loopback whose ffmpeg source stops and starts again, a stream paused and played
/// again, and URLs that are no audio. What is heard comes from the daemon's `file:`
/// capture; what is shown from `status`.
@Suite(
    .enabled(if: IcecastServer.isInstalled, "needs icecast2, ffmpeg and curl (scripts/lib/packages.sh)"),
    .timeLimit(.minutes(3)), .serialized, .tags(.peer), .group(.peer))
struct StreamResilienceTests {
    func hertz(_ samples: [Int16]) -> Double {
        ToneAnalysis.frequency(of: samples, channels: 2, sampleRate: 44100)
    }

    @Test func aStreamPausedAndPlayedAgainRejoinsLive() throws {
        try withIcecastAndDaemon { server, daemon in
            let client = try daemon.client()
            try client.ok("add", ["urls": [server.url("/tone.mp3")]])
            _ = try sounding(daemon, seconds: 1)
            try client.ok("pause")
            // Paused, the connection goes on filling the buffer with 440 Hz for 3 s; then
            // the station moves on to 880 Hz.
            sleep(3)
            server.stopSource(mount: "/tone.mp3")
            try server.startTone(mount: "/tone.mp3", frequency: 880)

            let resumed = try daemon.capturedSamples().count
            try client.ok("play")
            let heard = try sounding(daemon, after: resumed, seconds: 3)
            // What the decoder and the output hold (about a second) plays first; the stale
            // buffer (Icecast's 4 s burst and the 3 s paused) would play for 7 s.
            let hz = hertz(Array(heard[(44100 * 5)..<(44100 * 6)]))
            #expect(abs(hz - 880) < 4, "heard \(hz) Hz 2.5 s after play: the stale buffer played")
            #expect(try client.status()["state"] as? String == "playing")
        }
    }

    /// The station's source stops for 8 s (Icecast drops its listeners and the mount is
    /// gone): status says `buffering` while the entry stays current and `playing`, the
    /// daemon answers meanwhile, and the stream comes back by itself — the new tone in
    /// the capture, `buffering` false — with no command.
    @Test func aSourceGoneForEightSecondsIsBufferingThenPlaysOnByItself() throws {
        try withIcecastAndDaemon { server, daemon in
            let client = try daemon.client()
            try client.ok("add", ["urls": [server.url("/tone.mp3")]])
            _ = try sounding(daemon, seconds: 1)
            let entry = try client.status()["entry"] as? Int
            server.stopSource(mount: "/tone.mp3")
            let stopped = Date()
            try waitUntil("status says buffering", limit: 30) { try client.status()["buffering"] as? Bool == true }
            var answered = 0
            while Date().timeIntervalSince(stopped) < 8 {
                try client.ok("ping")
                answered += 1
                usleep(100_000)
            }
            #expect(answered > 0)
            let held = try client.status()
            #expect(held["state"] as? String == "playing")
            #expect(held["entry"] as? Int == entry)
            let before = try daemon.capturedSamples().count
            try server.startTone(mount: "/tone.mp3", frequency: 660)
            let heard = try sounding(daemon, after: before, seconds: 2)
            let hz = hertz(Array(heard.suffix(44100 * 2)))
            #expect(abs(hz - 660) < 4, "heard \(hz) Hz after the source came back")
            try waitUntil("buffering ends", limit: 30) { try client.status()["buffering"] as? Bool == false }
            #expect(try client.status()["entry"] as? Int == entry)
        }
    }

    @Test func anHTMLPageAndATextFileAreSkippedWithTheirReasons() throws {
        try withIcecastAndDaemon { server, daemon in
            try server.serve("station.html", "<!DOCTYPE html><html><body>Listen live!</body></html>\n")
            try server.serve("notes.txt", "not a stream\n")
            let client = try daemon.client()
            let watcher = try daemon.client()
            try watcher.ok("subscribe", ["events": ["error"]])
            try client.ok("add", ["urls": [server.url("/station.html"), server.url("/notes.txt"), server.url("/tone.mp3")]])

            let page = try watcher.event("error")
            #expect((page["reason"] as? String)?.contains("HTML") == true, "\(page)")
            let text = try watcher.event("error")
            #expect((text["reason"] as? String)?.contains("text/plain") == true, "\(text)")
            let heard = try sounding(daemon, seconds: 1)
            #expect(abs(hertz(heard) - 440) < 4)
            #expect(try client.status()["index"] as? Int == 2)
        }
    }
}
