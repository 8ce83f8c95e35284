import Foundation
import QPlayTestSupport
import Testing

/// The level meter through the real daemon and the real qplay binary: a FLAC sine (made
/// with sox, lossless) at −12.02 dBFS on the left and −6 dBFS on the right, and digital
/// silence, played into the `file:` output. Each channel is read on its own.
@Suite struct LevelMeterEndToEndTests {
    /// A music folder with a 30 s stereo sine, −12.02 dBFS left and −6 dBFS right (RMS
    /// 3.01 dB lower), and 30 s of digital silence.
    private func sineMusic() throws -> TemporaryDirectory {
        let music = TemporaryDirectory("qplay-meter")
        try GeneratedAudio.run(
            "sox", "-R", "-D", "-r", "44100", "-c", "2", "-n", "-b", "16", music.appending("sine.flac").string,
            "synth", "30", "sine", "997", "gain", "-6", "remix", "1v0.5", "2")
        try GeneratedAudio.run(
            "sox", "-R", "-D", "-n", "-r", "44100", "-c", "2", "-b", "16", music.appending("silence.flac").string,
            "trim", "0", "30")
        return music
    }

    /// The sine's reading, lowered by `gain` dB: each channel within 0.1 dB.
    private func expectSine(_ reading: (rms: [Double], peak: [Double]), lowered gain: Double = 0,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reading.rms.count == 2 && reading.peak.count == 2, "\(reading)", sourceLocation: sourceLocation)
        guard reading.rms.count == 2 && reading.peak.count == 2 else { return }
        for (value, expected) in zip(reading.rms + reading.peak, [-15.03, -9.03, -12.02, -6.0]) {
            #expect(abs(value - (expected - gain)) <= 0.1, "\(reading)", sourceLocation: sourceLocation)
        }
    }

    private func levels(_ data: [String: Any]) -> (rms: [Double], peak: [Double]) {
        ((data["rms_db"] as? [Any] ?? []).compactMap(number), (data["peak_db"] as? [Any] ?? []).compactMap(number))
    }

    @Test func subscribersGetLevelsStatusCarriesThemAndPlaceholdersShowThem() throws {
        let music = try sineMusic()
        defer { music.remove() }
        try withDaemon(music: music.path.string) { daemon in
            let control = try daemon.client()
            // Not playing: no level.
            #expect(try control.status()["level"] is NSNull)
            try control.ok("add", ["paths": ["sine.flac"]])
            try control.ok("play")

            let listener = try daemon.client()
            try listener.ok("subscribe", ["events": ["level"]])
            var readings: [(rms: [Double], peak: [Double])] = []
            for _ in 0..<12 { readings.append(levels(try listener.event("level"))) }
            for reading in readings.dropFirst(2) { expectSine(reading) }
            let status = try control.status()
            expectSine(levels(try #require(status["level"] as? [String: Any])))
            // One number: the loudest channel, the right one.
            #expect(try daemon.qplayOK("status", "--format", "{level_db}") == "-9.0\n")
            // −9.03 dB on a −60…0 dB scale of 8 cells: 0.85 × 64 eighths = 54 → 6 full, ▋, a space.
            #expect(try daemon.qplayOK("status", "--format", "[{meter}]") == "[██████▊ ]\n")

            // Volume 50 lowers it by the curve's 18.06 dB.
            try control.ok("volume", ["set": 50])
            _ = try listener.event("level")
            _ = try listener.event("level")
            expectSine(levels(try listener.event("level")), lowered: 18.06)
            try control.ok("volume", ["set": 100])

            // Digital silence reads as the floor on both channels, once the sine has left the
            // window (a reading covers about 0.1 s).
            try control.ok("add", ["paths": ["silence.flac"]])
            try control.ok("next")
            var silent: (rms: [Double], peak: [Double])?
            for _ in 0..<100 {
                let reading = levels(try listener.event("level"))
                if reading.peak.allSatisfy({ $0 == -160 }) {
                    silent = reading
                    break
                }
            }
            let floor = try #require(silent, "no silent reading within 100")
            #expect(floor.rms == [-160, -160] && floor.peak == [-160, -160], "\(floor)")
            let next = levels(try listener.event("level"))
            #expect(next.rms == [-160, -160] && next.peak == [-160, -160], "\(next)")

            // Paused: no level in status, and the events stop.
            try control.ok("pause")
            #expect(try control.status()["level"] is NSNull)
            try listener.ok("ping")
            #expect(try listener.isQuiet(for: 1), "level events while paused")
        }
    }

    @Test func theDefaultSubscriptionHasNoLevelEvents() throws {
        let music = try sineMusic()
        defer { music.remove() }
        try withDaemon(music: music.path.string) { daemon in
            let client = try daemon.client()
            try client.ok("subscribe")
            // Beside it, a client that names `level`: the meter runs meanwhile.
            let levelClient = try daemon.client()
            try levelClient.ok("subscribe", ["events": ["level"]])
            let control = try daemon.client()
            try control.ok("add", ["paths": ["sine.flac"]])
            try control.ok("play")
            _ = try client.event("player", where: { $0["state"] as? String == "playing" })
            // A second of playing: player/queue events may come, level events must not.
            let deadline = Date().addingTimeInterval(1.5)
            while Date() < deadline {
                guard let line = try client.readLineIfAny(within: 0.2) else { continue }
                #expect(!line.contains("\"event\":\"level\""), "\(line)")
            }
            // The first readings may hold the start of playback.
            _ = try levelClient.event("level")
            _ = try levelClient.event("level")
            expectSine(levels(try levelClient.event("level")))
        }
    }

    @Test func meterPrintsALinePerReadingIntoAPipe() throws {
        let music = try sineMusic()
        defer { music.remove() }
        try withDaemon(music: music.path.string) { daemon in
            try daemon.client().ok("add", ["paths": ["sine.flac"]])
            try daemon.qplayOK("play")
            let meter = try LineReadingProcess(BuiltProducts.url("qplay"), ["meter"], environment: daemon.environment)
            var lines: [String] = []
            while lines.count < 8, let line = meter.nextLine() { lines.append(line) }
            meter.terminate()
            try #require(lines.count == 8)
            for line in lines.dropFirst(2) {
                #expect(line == "rms_db -15.0 -9.0 peak_db -12.0 -6.0", "\(line)")
            }
        }
    }
}

extension LineSocketClient {
    /// No line arrives within `seconds` (a bound: the test asserts something does not
    /// happen, so it waits out the whole time).
    func isQuiet(for seconds: Double) throws -> Bool {
        try readLineIfAny(within: seconds) == nil
    }
}
