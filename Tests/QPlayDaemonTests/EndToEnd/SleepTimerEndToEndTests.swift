import Foundation
import QPlayTestSupport
import SystemPackage
import Testing

/// The sleep timer through the real daemon and the real `qplay`, heard in the `file:`
/// capture: the fade, the exact track boundary of `end`, cancel, and wall time.
@Suite struct SleepTimerEndToEndTests {
    static let long = ToneFixture(file: "long.mp3", title: "Long", toneHz: 440, seconds: 40, artist: "Sleep", album: "Night")
    static let first = ToneFixture(file: "first.mp3", title: "First", toneHz: 523, seconds: 2.5, artist: "Sleep", album: "Night")
    static let second = ToneFixture(file: "second.mp3", title: "Second", toneHz: 988, seconds: 2.5, artist: "Sleep", album: "Night")

    /// RMS of consecutive windows of `seconds` of stereo 44.1 kHz samples.
    static func windowLevels(_ samples: ArraySlice<Int16>, seconds: Double) -> [Double] {
        let step = Int(seconds * 44100) * 2
        return stride(from: samples.startIndex, to: samples.endIndex - step + 1, by: step).map {
            ToneFixtures.rms(samples[$0..<($0 + step)])
        }
    }

    /// Runs `body` with a daemon serving `fixtures` with `config`, stopped and removed after.
    static func withDaemon(
        _ fixtures: [ToneFixture], config: String, _ body: (DaemonProcess, TemporaryDirectory) throws -> Void
    ) throws {
        let music = TemporaryDirectory("qplay-sleep")
        defer { music.remove() }
        _ = try ToneFixtures.generate(fixtures, in: music)
        try QPlayTestSupport.withDaemon(music: music.path.string, config: config) { daemon in try body(daemon, music) }
    }

    @Test func theVolumeFadesToSilenceThenPlaybackPausesAndTheVolumeReturns() throws {
        // A decimal fade: numeric config values take decimals.
        try Self.withDaemon([Self.long], config: "sleep_fade = 2.5\n") { daemon, music in
            let client = try daemon.client()
            try client.ok("add", ["paths": [Self.long.file]])
            try waitUntil("playback started") { try client.status()["state"] as? String == "playing" }
            usleep(1_000_000)
            let set = try daemon.qplayOK("sleep", "2s")
            #expect(set.hasPrefix("sleep in 0:0"), "\(set)")
            try waitUntil("the timer paused playback", limit: 30) { try client.status()["state"] as? String == "paused" }
            let status = try client.status()
            #expect(status["volume"] as? Int == 100)
            #expect(status["sleep"] is NSNull, "\(status)")
            let captured = try daemon.capturedSamples()

            // Steady before the fade, falling through it, silent at the end.
            let levels = Self.windowLevels(captured[...], seconds: 0.1)
            let steady = try #require(levels.dropFirst(5).first)
            let fadeStart = try #require(levels.indices.dropFirst(5).first { levels[$0] < steady * 0.97 }, "\(levels)")
            let silentFrom = try #require(levels.indices.first { $0 > fadeStart && levels[$0] < 3 }, "\(levels)")
            let fade = Array(levels[fadeStart...silentFrom])
            for (earlier, later) in zip(fade, fade.dropFirst()) {
                #expect(later <= earlier * 1.001 + 1, "the level rose during the fade: \(fade)")
            }
            let fadeSeconds = Double(silentFrom - fadeStart) * 0.1
            #expect(fadeSeconds > 2.5 * 0.6 && fadeSeconds <= 2.5 + 0.3, "fade of \(fadeSeconds) s: \(fade)")
            for level in levels[silentFrom...] { #expect(level < 3, "not silent after the fade: \(levels[silentFrom...])") }

            // Resumed: at the full level again.
            let before = captured.count
            try daemon.qplayOK("play")
            try waitUntil("a second more was played") { try daemon.capturedSamples().count > before + 44100 * 2 * 2 }
            let resumed = try daemon.capturedSamples()
            let after = Self.windowLevels(resumed[(resumed.count - 44100)...], seconds: 0.1)
            for level in after { #expect(abs(level / steady - 1) < 0.05, "resumed at \(after), steady \(steady)") }
        }
    }

    @Test func endOfTrackPausesAtTheBoundaryWithNothingOfTheNextTrack() throws {
        try Self.withDaemon([Self.first, Self.second], config: "") { daemon, music in
            let reference = try ToneFixtures.decodedByLame(music.appending(Self.first.file), in: music)
            let client = try daemon.client()
            try client.ok("add", ["paths": [Self.first.file, Self.second.file]])
            let set = try daemon.qplayJSON("sleep", "end")
            let sleep = try #require(set["sleep"] as? [String: Any], "\(set)")
            #expect(sleep["end_of_track"] as? Bool == true)
            #expect((number(sleep["remaining"]) ?? 0) > 0 && (number(sleep["remaining"]) ?? 99) <= 2.6, "\(sleep)")
            #expect(try daemon.qplayOK("sleep").hasPrefix("sleep at the end of this track"))
            try waitUntil("paused at the track end", limit: 30) { try client.status()["state"] as? String == "paused" }
            let status = try client.status()
            #expect(title(status) == "Second")
            #expect(number(status["position"]) == 0)
            #expect(status["sleep"] is NSNull)
            usleep(500_000)
            let captured = try daemon.capturedSamples()
            let runs = ToneRuns.runs(in: captured, tones: [Self.first.toneHz, Self.second.toneHz])
            #expect(!runs.contains { $0.tone == 1 }, "the next track was heard: \(runs)")
            // All of the first track and not a frame more: as many frames as lame's own
            // decode of it (both honour the LAME header's gapless trim).
            #expect(captured.count == reference.count, "\(captured.count / 2) vs \(reference.count / 2) frames")
            let tail = captured[(captured.count - 4410 * 2)...]
            #expect(ToneFixtures.rms(tail) > 1000, "the first track's end was cut")

            // Play goes on with the next track from its start.
            try daemon.qplayOK("play")
            try waitUntil("the second track was heard") {
                ToneRuns.runs(in: try daemon.capturedSamples(), tones: [Self.first.toneHz, Self.second.toneHz])
                    .contains { $0.tone == 1 }
            }
        }
    }

    @Test func aTimerSetThenCancelledNeverFires() throws {
        try Self.withDaemon([Self.long], config: "sleep_fade = 1\n") { daemon, music in
            let client = try daemon.client()
            try client.ok("add", ["paths": [Self.long.file]])
            try client.ok("sleep", ["after": 2])
            #expect(try daemon.qplayOK("sleep", "off") == "no sleep timer\n")
            #expect(try client.status()["sleep"] is NSNull)
            let start = try daemon.capturedSamples().count
            // Well past the deadline and the fade.
            usleep(5_000_000)
            #expect(try client.status()["state"] as? String == "playing")
            let captured = try daemon.capturedSamples()
            let levels = Self.windowLevels(captured[start...].dropLast(4410 * 2), seconds: 0.1)
            let steady = try #require(levels.dropFirst(2).first)
            for level in levels.dropFirst(2) { #expect(abs(level / steady - 1) < 0.05, "the level moved: \(levels)") }
        }
    }

    @Test func pausingAndResumingByHandKeepsTheTimerCountingWallTime() throws {
        try Self.withDaemon([Self.long], config: "sleep_fade = 0.5\n") { daemon, music in
            let client = try daemon.client()
            try client.ok("add", ["paths": [Self.long.file]])
            try waitUntil("playback started") { try client.status()["state"] as? String == "playing" }
            let setAt = Date()
            try daemon.qplayOK("sleep", "6s")
            try daemon.qplayOK("pause")
            let pausedRemaining = try #require(number((try client.status()["sleep"] as? [String: Any])?["remaining"]))
            usleep(2_000_000)
            let laterRemaining = try #require(number((try client.status()["sleep"] as? [String: Any])?["remaining"]))
            #expect(laterRemaining <= pausedRemaining - 1.5, "\(pausedRemaining) then \(laterRemaining)")
            try daemon.qplayOK("play")
            #expect(try client.status()["state"] as? String == "playing")
            try waitUntil("the timer paused playback", limit: 30) { try client.status()["state"] as? String == "paused" }
            // Never before its wall-clock deadline (the fade, written ahead of the clock by
            // the output's buffer, follows it).
            #expect(Date().timeIntervalSince(setAt) >= 6)
            #expect(try daemon.qplayOK("sleep") == "no sleep timer\n")
        }
    }

    @Test func badSleepArgumentsAreRefusedAndChangeNothing() throws {
        try QPlayTestSupport.withDaemon(waitForLibrary: false) { daemon in
            let usage = try daemon.qplay("sleep", "soon")
            #expect(usage.status == 2)
            #expect(usage.stderr.contains("sleep takes a duration"), "\(usage.stderr)")
            let client = try daemon.client()
            for args: [String: Any] in [["after": 0], ["after": -5], ["after": "10"], ["cancel": false], [:], ["after": 5, "cancel": true]] {
                let response = try client.request("sleep", args)
                #expect(response["ok"] as? Bool == false, "\(args): \(response)")
            }
            #expect(try client.status()["sleep"] is NSNull)
            #expect(try daemon.qplayOK("sleep", "90s").hasPrefix("sleep in 1:"))
            #expect(try daemon.qplayOK("sleep", "1h").hasPrefix("sleep in "))
            let hour = try #require(number((try client.status()["sleep"] as? [String: Any])?["remaining"]))
            #expect(hour > 3590 && hour <= 3600)
            try daemon.qplayOK("sleep", "30m")
            let half = try #require(number((try client.status()["sleep"] as? [String: Any])?["remaining"]))
            #expect(half > 1790 && half <= 1800)
        }
    }
}
