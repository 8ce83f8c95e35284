import Foundation
import QPlayTestSupport
import Testing

/// Internet radio through the real daemon: a real Icecast on loopback fed by ffmpeg
/// tones, URL entries added over the socket, the audio heard in the daemon's `file:`
/// capture, ICY titles in status and `player` events, seeks refused, and URLs that
/// cannot play skipped with their reasons.
@Suite(
    .enabled(if: IcecastServer.isInstalled, "needs icecast2, ffmpeg and curl (scripts/lib/packages.sh)"),
    .timeLimit(.minutes(3)), .serialized, .tags(.peer), .group(.peer))
struct StreamPlaybackTests {
    @Test func anMP3StreamPlaysAtItsPitchWithItsICYTitleInStatus() throws {
        try withIcecastAndDaemon { server, daemon in
            let client = try daemon.client()
            let watcher = try daemon.client()
            try watcher.ok("subscribe", ["events": ["player"]])

            let added = try client.ok("add", ["urls": [server.url("/tone.mp3")]])
            #expect(added["added"] as? Int == 1)
            #expect(added["started"] as? Bool == true)
            let heard = try sounding(daemon, seconds: 3)
            let hz = ToneAnalysis.frequency(of: heard, channels: 2, sampleRate: 44100)
            #expect(abs(hz - 440) < 4, "heard \(hz) Hz")
            // No gap: the tone holds its level all through (an underrun's silence would show).
            let quietest = stride(from: 0, to: heard.count - 882, by: 882).map { start in
                heard[start..<(start + 882)].map { abs(Int($0)) }.max() ?? 0
            }.min() ?? 0
            #expect(quietest > 1000, "a 10 ms stretch peaked at \(quietest)")
            #expect(try client.status()["state"] as? String == "playing")

            try server.setTitle("Tone Artist - Sine at 440", mount: "/tone.mp3")
            try waitUntil("the ICY title in status", limit: 60) { title(try client.status()) == "Sine at 440" }
            let track = try #require(try client.status()["track"] as? [String: Any])
            #expect(track["artist"] as? String == "Tone Artist")
            let event = try watcher.event("player") { data in
                ((data["track"] as? [String: Any])?["title"] as? String) == "Sine at 440"
            }
            #expect((event["track"] as? [String: Any])?["artist"] as? String == "Tone Artist")

            let seek = try client.request("seek", ["position": 30])
            #expect(seek["ok"] as? Bool == false)
            #expect((seek["error"] as? [String: Any])?["code"] as? String == "not_seekable")
            #expect(try client.status()["state"] as? String == "playing")
        }
    }

    @Test func aMissingMountAndAClosedPortAreSkippedWithTheirReasons() throws {
        try withIcecastAndDaemon { server, daemon in
            let closed = try FreeTCPPort.probe()
            let client = try daemon.client()
            let watcher = try daemon.client()
            try watcher.ok("subscribe", ["events": ["error"]])
            let urls = [server.url("/missing.mp3"), "http://127.0.0.1:\(closed)/live", server.url("/tone.mp3")]
            try client.ok("add", ["urls": urls])

            let missing = try watcher.event("error")
            #expect((missing["reason"] as? String)?.contains("404") == true, "\(missing)")
            let unreachable = try watcher.event("error")
            #expect((unreachable["reason"] as? String)?.contains("cannot connect") == true, "\(unreachable)")
            // The third plays on.
            let heard = try sounding(daemon, seconds: 2)
            #expect(abs(ToneAnalysis.frequency(of: heard, channels: 2, sampleRate: 44100) - 440) < 4)
            #expect(try client.status()["index"] as? Int == 2)
        }
    }

    @Test func aPlaylistURLAddsItsStreamsAndTheQueueListsThem() throws {
        try withIcecastAndDaemon { server, daemon in
            try server.serve("radio.pls", """
                [playlist]
                NumberOfEntries=2
                File1=\(server.url("/tone.mp3"))
                Title1=Tone radio
                File2=/missing.mp3
                Version=2

                """)
            let client = try daemon.client()
            let added = try client.ok("add", ["urls": [server.url("/radio.pls")]])
            #expect(added["added"] as? Int == 2)
            let entries = try #require(try client.ok("queue")["entries"] as? [[String: Any]])
            let titles = entries.compactMap { ($0["track"] as? [String: Any])?["title"] as? String }
            #expect(titles == ["Tone radio", server.url("/missing.mp3")])
            _ = try sounding(daemon, seconds: 1)

            // An extended .m3u the same way, its title from #EXTINF, a relative entry
            // resolved against the playlist's own URL.
            try server.serve("radio.m3u", """
                #EXTM3U
                #EXTINF:-1,Tone radio (m3u)
                tone.mp3

                """)
            let m3u = try client.ok("add", ["urls": [server.url("/radio.m3u")]])
            #expect(m3u["added"] as? Int == 1)
            let listed = try #require(try client.ok("queue")["entries"] as? [[String: Any]])
            let last = try #require(listed.last?["track"] as? [String: Any])
            #expect(last["title"] as? String == "Tone radio (m3u)")
            #expect(last["path"] as? String == server.url("/tone.mp3"))

            let refused = try client.request("add", ["urls": ["ftp://example.com/x.mp3"]])
            #expect((refused["error"] as? [String: Any])?["code"] as? String == "bad_request")
        }
    }

    @Test func qplayAddAndMPDAddidTakeAURL() throws {
        let port = try FreeTCPPort.probe()
        try withIcecastAndDaemon(arguments: ["--mpd", "127.0.0.1:\(port)"]) { server, daemon in
            let url = server.url("/tone.mp3")
            try daemon.qplayOK("add", url)
            let mpd = try MPDRawClient(port: port)
            let id = try mpd.fields("addid \(url)")["Id"]
            #expect(id != nil)
            let client = try daemon.client()
            let entries = try #require(try client.ok("queue")["entries"] as? [[String: Any]])
            let titles = entries.compactMap { ($0["track"] as? [String: Any])?["title"] as? String }
            #expect(titles == [url, url])
            #expect(entries.last.flatMap { number($0["entry"]) }.map { String(Int($0)) } == id)
            let heard = try sounding(daemon, seconds: 1)
            #expect(abs(ToneAnalysis.frequency(of: heard, channels: 2, sampleRate: 44100) - 440) < 4)
        }
    }
}
