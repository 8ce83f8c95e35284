import Foundation
import QPlayTestSupport
import Testing

/// The level meter through the real daemon and the real qplay binary: a FLAC sine at
/// −6 dBFS (made with sox, lossless) played into the `file:` output.
@Suite struct LevelMeterEndToEndTests {
    /// A music folder with a 30 s stereo sine at −6 dBFS.
    private func sineMusic() throws -> TemporaryDirectory {
        let music = TemporaryDirectory("qplay-meter")
        try GeneratedAudio.run(
            "sox", "-D", "-n", "-r", "44100", "-c", "2", "-b", "16", music.appending("sine.flac").string, "synth", "30",
            "sine", "997", "gain", "-6")
        return music
    }

    private func levels(_ data: [String: Any]) -> (rms: [Double], peak: [Double]) {
        ((data["rms_db"] as? [Any] ?? []).compactMap(number), (data["peak_db"] as? [Any] ?? []).compactMap(number))
    }

    @Test func subscribersGetLevelsStatusCarriesThemAndPlaceholdersShowThem() throws {
        let music = try sineMusic()
        defer { music.remove() }
        let daemon = try startedDaemon(music: music.path.string)
        defer { daemon.stop() }
        let control = try daemon.client()
        // Not playing: no level.
        #expect(try control.status()["level"] is NSNull)
        try control.ok("add", ["paths": ["sine.flac"]])
        try control.ok("play")

        let listener = try daemon.client()
        try listener.ok("subscribe", ["events": ["level"]])
        var readings: [(rms: [Double], peak: [Double])] = []
        for _ in 0..<12 { readings.append(levels(try listener.event("level"))) }
        for reading in readings.dropFirst(2) {
            #expect(reading.rms.count == 2 && reading.peak.count == 2, "\(reading)")
            for value in reading.rms { #expect(abs(value - -9.03) <= 0.1, "rms \(reading.rms)") }
            for value in reading.peak { #expect(abs(value - -6.0) <= 0.1, "peak \(reading.peak)") }
        }
        let status = try control.status()
        let level = levels(try #require(status["level"] as? [String: Any]))
        #expect(abs(level.rms[0] - -9.03) <= 0.1, "\(level)")
        #expect(try daemon.qplayOK("status", "--format", "{level_db}") == "-9.0\n")
        // −9.03 dB on a −60…0 dB scale of 8 cells: 0.85 × 64 eighths = 54 → 6 full, ▋, a space.
        #expect(try daemon.qplayOK("status", "--format", "[{meter}]") == "[██████▊ ]\n")

        // Volume 50 lowers it by the curve's 18.06 dB.
        try control.ok("volume", ["set": 50])
        _ = try listener.event("level")
        _ = try listener.event("level")
        let lowered = levels(try listener.event("level"))
        #expect(abs(lowered.rms[0] - (-9.03 - 18.06)) <= 0.1, "\(lowered)")
        try control.ok("volume", ["set": 100])

        // Paused: no level in status, and the events stop.
        try control.ok("pause")
        #expect(try control.status()["level"] is NSNull)
        try listener.ok("ping")
        #expect(try listener.isQuiet(for: 1), "level events while paused")
    }

    @Test func theDefaultSubscriptionHasNoLevelEvents() throws {
        let music = try sineMusic()
        defer { music.remove() }
        let daemon = try startedDaemon(music: music.path.string)
        defer { daemon.stop() }
        let client = try daemon.client()
        try client.ok("subscribe")
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
    }

    @Test func meterPrintsALinePerReadingIntoAPipe() throws {
        let music = try sineMusic()
        defer { music.remove() }
        let daemon = try startedDaemon(music: music.path.string)
        defer { daemon.stop() }
        try daemon.client().ok("add", ["paths": ["sine.flac"]])
        try daemon.qplayOK("play")
        let meter = try LineReadingProcess(BuiltProducts.url("qplay"), ["meter"], environment: daemon.environment)
        var lines: [String] = []
        while lines.count < 8, let line = meter.nextLine() { lines.append(line) }
        meter.terminate()
        try #require(lines.count == 8)
        for line in lines.dropFirst(2) {
            #expect(line == "rms_db -9.0 -9.0 peak_db -6.0 -6.0", "\(line)")
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
