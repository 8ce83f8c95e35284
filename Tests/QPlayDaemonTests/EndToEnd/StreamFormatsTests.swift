import Foundation
import QPlayTestSupport
import Testing

/// Internet radio in the formats besides MP3, through the real daemon: a real Icecast on
/// loopback fed by ffmpeg with a tone of its own frequency per format, the URL added
/// over the socket, and the pitch measured in the daemon's `file:` capture — a decoder
/// that played the stream at the wrong rate, or anything but the tone, would show. A
/// mount of a codec qplay does not decode is skipped with its reason.
@Suite(
    .enabled(if: IcecastServer.isInstalled, "needs icecast2, ffmpeg and curl (scripts/lib/packages.sh)"),
    .timeLimit(.minutes(3)), .serialized, .tags(.peer), .group(.peer))
struct StreamFormatsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let codec: IcecastServer.Codec
        let frequency: Int
        var testDescription: String { "\(codec.rawValue) at \(frequency) Hz" }
    }

    static let cases = [
        Case(codec: .vorbis, frequency: 523),
        // Opus decodes at 48 kHz: heard at its pitch after the resampling to the output's.
        Case(codec: .opus, frequency: 659),
        Case(codec: .aac, frequency: 784),
    ]

    /// Waits until Icecast holds `bytes` of the mount, as a station on the air does: a
    /// listener gets a burst of it on connecting. ffmpeg's Ogg muxer sends a page a
    /// second; without a burst the first seconds would play with gaps between pages.
    func waitForBurst(_ server: IcecastServer, mount: String, bytes: Int = 40000) throws {
        try waitUntil("Icecast holds \(bytes) bytes of \(mount)", limit: 60) {
            let stats = try server.get("/admin/stats").stdout
            guard let source = stats.range(of: "<source mount=\"\(mount)\">") else { return false }
            let rest = stats[source.upperBound...]
            guard let open = rest.range(of: "<total_bytes_read>"), let close = rest.range(of: "</total_bytes_read>")
            else { return false }
            return Int(rest[open.upperBound..<close.lowerBound]).map { $0 >= bytes } ?? false
        }
    }

    @Test(arguments: cases)
    func aStreamPlaysAtItsPitch(_ format: Case) throws {
        try withIcecastAndDaemon(tone: nil) { server, daemon in
            let mount = "/tone.\(format.codec.rawValue)"
            try server.startTone(mount: mount, frequency: format.frequency, codec: format.codec)
            try waitForBurst(server, mount: mount)
            let client = try daemon.client()
            let added = try client.ok("add", ["urls": [server.url(mount)]])
            #expect(added["started"] as? Bool == true)
            let heard = try sounding(daemon, seconds: 2)
            for channel in 0..<2 {
                let hz = ToneAnalysis.frequency(of: heard, channels: 2, channel: channel, sampleRate: 44100)
                #expect(abs(hz - Double(format.frequency)) < 4, "channel \(channel): heard \(hz) Hz")
            }
            // No gap: the tone holds its level all through (a dry buffer's silence would show).
            let quietest = stride(from: 0, to: heard.count - 882, by: 882).map { start in
                heard[start..<(start + 882)].map { abs(Int($0)) }.max() ?? 0
            }.min() ?? 0
            #expect(quietest > 1000, "a 10 ms stretch peaked at \(quietest)")
            #expect(try client.status()["state"] as? String == "playing")
        }
    }

    @Test func anOggFLACMountIsSkippedWithItsReasonAndTheNextStreamPlays() throws {
        try withIcecastAndDaemon(tone: nil) { server, daemon in
            try server.startTone(mount: "/tone.oga", frequency: 330, codec: .oggFLAC)
            try server.startTone(mount: "/tone.ogg", frequency: 523, codec: .vorbis)
            let client = try daemon.client()
            let watcher = try daemon.client()
            try watcher.ok("subscribe", ["events": ["error"]])
            try client.ok("add", ["urls": [server.url("/tone.oga"), server.url("/tone.ogg")]])

            let skipped = try watcher.event("error")
            let reason = skipped["reason"] as? String ?? ""
            #expect(reason.contains("an Ogg stream of a codec qplay does not play"), "\(skipped)")
            #expect(reason.contains("MP3, Ogg Vorbis, Opus and AAC streams"), "\(skipped)")
            let heard = try sounding(daemon, seconds: 1)
            #expect(abs(ToneAnalysis.frequency(of: heard, channels: 2, sampleRate: 44100) - 523) < 4)
            #expect(try client.status()["index"] as? Int == 1)
        }
    }
}
