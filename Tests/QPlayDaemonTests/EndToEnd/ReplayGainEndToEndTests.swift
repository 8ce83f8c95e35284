import Foundation
import QPlayTestSupport
import SystemPackage
import Testing

/// ReplayGain through the real daemon: MP3s tagged with REPLAYGAIN_* `TXXX` frames,
/// indexed by the real scanner, played by qplayd with `replaygain` set in its config
/// file into the `file:` output; the level of each track in the capture is measured
/// against lame's own decode of the file.
@Suite struct ReplayGainEndToEndTests {
    /// A two-track album ("Duo") whose tracks have different track gains and one album
    /// gain, a lone track of another album, and a loud track whose +10 dB the peak limits.
    static let fixtures = [
        ToneFixture(
            file: "duo-1.mp3", title: "Duo One", toneHz: 440, seconds: 1.2, artist: "Band", album: "Duo",
            userText: gains(track: "-6.02 dB", trackPeak: "0.500000", album: "-12.04 dB", albumPeak: "0.500000")),
        ToneFixture(
            file: "duo-2.mp3", title: "Duo Two", toneHz: 587, seconds: 1.2, artist: "Band", album: "Duo",
            userText: gains(track: "-2.50 dB", trackPeak: "0.500000", album: "-12.04 dB", albumPeak: "0.500000")),
        ToneFixture(
            file: "solo.mp3", title: "Solo", toneHz: 784, seconds: 1.2, artist: "Band", album: "Solo",
            userText: gains(track: "-6.02 dB", trackPeak: "0.500000", album: "-12.04 dB", albumPeak: "0.500000")),
        ToneFixture(
            file: "loud.mp3", title: "Loud", toneHz: 1245, seconds: 1.2, artist: "Other", album: "Loud",
            userText: ["REPLAYGAIN_TRACK_GAIN": "+10.00 dB", "REPLAYGAIN_TRACK_PEAK": "0.900000"]),
    ]

    static func gains(track: String, trackPeak: String, album: String, albumPeak: String) -> [String: String] {
        [
            "REPLAYGAIN_TRACK_GAIN": track, "REPLAYGAIN_TRACK_PEAK": trackPeak,
            "REPLAYGAIN_ALBUM_GAIN": album, "REPLAYGAIN_ALBUM_PEAK": albumPeak,
        ]
    }

    /// `status.replaygain` while the first track is current.
    struct ExpectedStatus: Sendable {
        var mode: String
        var gain: Double?
        var source: String?
    }

    static func amplitude(_ decibels: Double) -> Double { pow(10, decibels / 20) }

    /// The config, the expected level of each fixture played in order relative to the
    /// file as it is, and the first track's `status.replaygain`.
    static let cases: [(config: String, levels: [Double], status: ExpectedStatus)] = [
        // −6.02 dB halves; +10 dB with peak 0.9 is limited to 1/0.9.
        (
            "replaygain = \"track\"", [0.5, amplitude(-2.5), 0.5, 1 / 0.9],
            .init(mode: "track", gain: -6.02, source: "track")
        ),
        // One album gain for both tracks of the album; the loud track has none: its own.
        ("replaygain = \"album\"", [0.25, 0.25, 0.25, 1 / 0.9], .init(mode: "album", gain: -12.04, source: "album")),
        // Album gain inside the album, track gain for the lone track after it.
        ("replaygain = \"auto\"", [0.25, 0.25, 0.5, 1 / 0.9], .init(mode: "auto", gain: -12.04, source: "album")),
        // The preamp adds to every gain, and the peak still limits.
        (
            "replaygain = \"track\"\nreplaygain_preamp = -6.02", [0.25, amplitude(-8.52), 0.25, 1 / 0.9],
            .init(mode: "track", gain: -12.04, source: "track")
        ),
        ("replaygain = \"off\"", [1, 1, 1, 1], .init(mode: "off", gain: nil, source: nil)),
    ]

    @Test(arguments: cases.indices)
    func eachTrackPlaysAtTheLevelItsModeAsks(_ index: Int) throws {
        let (config, levels, expectedStatus) = Self.cases[index]
        let music = TemporaryDirectory("qplay-replaygain")
        defer { music.remove() }
        let files = try ToneFixtures.generate(Self.fixtures, in: music)
        let references = try files.map { ToneFixtures.rms(interior(try ToneFixtures.decodedByLame($0, in: music))) }

        try withDaemon(music: music.path.string, config: config + "\n") { daemon in
            let client = try daemon.client()
            let added = try client.ok("add", ["paths": Self.fixtures.map(\.file)])
            #expect(added["added"] as? Int == Self.fixtures.count)
            let replayGain = try #require(try client.ok("status")["replaygain"] as? [String: Any])
            #expect(replayGain["mode"] as? String == expectedStatus.mode, "\(replayGain)")
            #expect(number(replayGain["gain"]) == expectedStatus.gain, "\(replayGain)")
            #expect(replayGain["source"] as? String == expectedStatus.source, "\(replayGain)")
            try waitUntil("the queue played to its end", limit: 60) {
                try client.ok("status")["state"] as? String == "stopped"
            }
            let captured = try daemon.capturedSamples()

            let runs = ToneRuns.heard(
                ToneRuns.runs(in: captured, tones: Self.fixtures.map(\.toneHz)), minimumFrames: 44100 / 2)
            try #require(runs.map(\.tone) == Array(Self.fixtures.indices), "\(runs)\n\(daemon.log)")
            for (run, expected) in zip(runs, levels) {
                let played = captured[(run.startFrame * 2)..<(run.endFrame * 2)]
                let level = ToneFixtures.rms(interior(Array(played))) / references[run.tone]
                #expect(
                    abs(level / expected - 1) < 0.02,
                    "\(config): \(Self.fixtures[run.tone].file) at \(level), expected \(expected)")
            }
        }
    }

    /// The queue's tracks keep their ReplayGain values in the saved state: after a
    /// restart the restored entry has its gain again.
    @Test func theGainOfARestoredEntrySurvivesARestart() throws {
        let music = TemporaryDirectory("qplay-replaygain")
        defer { music.remove() }
        _ = try ToneFixtures.generate(Array(Self.fixtures.prefix(1)), in: music)
        let daemon = DaemonProcess(music: music.path.string)
        let config = try daemon.writeConfig("replaygain = \"track\"\nscan_on_start = false\n")
        try daemon.start(["--config", config])
        try daemon.waitForLibrary()
        try daemon.client().ok("add", ["paths": [Self.fixtures[0].file]])
        #expect(daemon.stop() == 0)
        // The index goes: only the saved queue knows the track's tags now.
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: daemon.dataDirectory + "/library.sqlite" + suffix)
        }
        try daemon.start(["--config", config])
        defer { daemon.stop() }
        let status = try daemon.client().ok("status")
        #expect(status["state"] as? String == "paused")
        let replayGain = try #require(status["replaygain"] as? [String: Any])
        #expect(number(replayGain["gain"]) == -6.02, "\(replayGain)")
        #expect(replayGain["source"] as? String == "track")
    }

    @Test func aBadReplayGainSettingStopsTheDaemonWithItsReason() throws {
        let daemon = DaemonProcess()
        let config = try daemon.writeConfig("replaygain = \"loudest\"\n")
        #expect(throws: (any Error).self) { try daemon.start(["--config", config]) }
        #expect(daemon.log.contains("key 'replaygain': unknown ReplayGain mode 'loudest'"), "\(daemon.log)")
        let preamp = try daemon.writeConfig("replaygain_preamp = 40\n")
        #expect(throws: (any Error).self) { try daemon.start(["--config", preamp]) }
        #expect(daemon.log.contains("key 'replaygain_preamp': 40.0 is out of range -15.0...15.0"), "\(daemon.log)")
    }

    /// Stereo samples without their first and last 0.1 s: a track's edges (the join,
    /// the decoder's first frame) say nothing about its level.
    private func interior(_ samples: [Int16]) -> ArraySlice<Int16> {
        let edge = 4410 * 2
        guard samples.count > 4 * edge else { return samples[...] }
        return samples[edge..<(samples.count - edge)]
    }
}
