import Foundation
import QPlayTestSupport
import Testing

/// Resume points through the real daemon and its `file:` output: a long track left
/// (stopped, skipped) starts 2 s before where it was left — found sample-exact in the
/// capture — also after a restart and a `kill -9`; a short track never resumes; a track
/// that played to its end starts from 0; a rescan keeps the point.
@Suite struct ResumeEndToEndTests {
    static let rate = 44100
    /// Past the threshold the tests configure (`resume_min_duration = 60`).
    static let longSeconds = 100
    static let config = "resume_min_duration = 60\nwatch = false\n"

    /// A staircase of tones, 10 s a step, each step its own frequency, with a little
    /// seeded noise on top so that no stretch of samples repeats: a window of the
    /// capture is found at exactly one place in the track. Mono 16-bit FLAC at the
    /// output's rate, so the capture holds its samples unchanged.
    static func staircase(seconds: Int, seed: UInt64, baseHz: Double) -> GeneratedPCM {
        var state = seed
        var phase = 0.0
        var samples = [Int32](repeating: 0, count: seconds * rate)
        for frame in samples.indices {
            let step = frame / (10 * rate)
            phase += 2 * Double.pi * (baseHz + 40 * Double(step)) / Double(rate)
            if phase > 2 * Double.pi { phase -= 2 * Double.pi }
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = Int32(truncatingIfNeeded: state >> 60) - 8
            samples[frame] = Int32((sin(phase) * 8000).rounded()) + noise
        }
        return GeneratedPCM(samples: samples, bits: 16, sampleRate: rate, channels: 1)
    }

    struct Music {
        let directory: TemporaryDirectory
        let long: GeneratedPCM
    }

    static func music() throws -> Music {
        let directory = TemporaryDirectory("qplay-resume")
        let long = staircase(seconds: longSeconds, seed: 7, baseHz: 300)
        try GeneratedAudio.flac(long, in: directory, name: "resume-long.flac")
        // 30 s: under the threshold.
        try GeneratedAudio.flac(staircase(seconds: 30, seed: 11, baseHz: 1200), in: directory, name: "resume-short.flac")
        return Music(directory: directory, long: long)
    }

    /// A staircase at 8 kHz mono in an 8 kb/s MP3 (sox and lame; about 700 KB for
    /// 12 minutes): long tracks for the default threshold of 600 s, cheap to make. Step
    /// `k` sounds at 200 + 20·k Hz.
    static func lowBitrateStaircase(in directory: TemporaryDirectory, name: String, seconds: Int) throws {
        let rate = 8000
        var phase = 0.0
        var bytes = [UInt8](repeating: 0, count: seconds * rate * 2)
        for frame in 0..<(seconds * rate) {
            phase += 2 * Double.pi * (200 + 20 * Double(frame / (10 * rate))) / Double(rate)
            if phase > 2 * Double.pi { phase -= 2 * Double.pi }
            let value = Int16((sin(phase) * 12000).rounded())
            bytes[2 * frame] = UInt8(truncatingIfNeeded: value)
            bytes[2 * frame + 1] = UInt8(truncatingIfNeeded: value >> 8)
        }
        let raw = directory.appending("\(name).raw")
        let wav = directory.appending("\(name).wav")
        try directory.write(bytes, to: raw)
        try GeneratedAudio.run(
            "sox", "-R", "-t", "raw", "-r", "\(rate)", "-e", "signed-integer", "-b", "16", "-c", "1", "-L", raw.string,
            wav.string)
        try GeneratedAudio.run("lame", "--quiet", "-b", "8", wav.string, directory.appending(name).string)
        for file in [raw, wav] { try FileManager.default.removeItem(atPath: file.string) }
    }

    /// Where in `track` (seconds) the first stretch of `track`'s samples that the
    /// capture holds after `from` (a count of S16 values) begins: a 512-frame window
    /// 0.25 s into it, found exactly in the track, less those 0.25 s.
    static func firstPosition(of track: GeneratedPCM, inCapture capture: [Int16], after from: Int) -> Double? {
        let left = stride(from: from - from % 2, to: capture.count, by: 2).map { Int32(capture[$0]) }
        let source = track.samples
        let window = 512
        let skip = rate / 4
        var start = 0
        // The first second of it, at most: the stretch starts right there.
        while start < rate, start + skip + window <= left.count {
            let probe = Array(left[(start + skip)..<(start + skip + window)])
            if probe.contains(where: { abs($0) > 100 }) {
                var offset = 0
                while offset + window <= source.count {
                    if source[offset] == probe[0], Array(source[offset..<(offset + window)]) == probe {
                        return Double(offset - skip) / Double(rate)
                    }
                    offset += 1
                }
            }
            start += rate / 20
        }
        return nil
    }

    /// Waits until the capture stops growing (the output has written what it had), and
    /// answers its length in S16 values.
    static func settledCapture(_ daemon: DaemonProcess) throws -> Int {
        var count = try daemon.capturedSamples().count
        while true {
            usleep(600_000)
            let now = try daemon.capturedSamples().count
            if now == count { return count }
            count = now
        }
    }

    private static func position(_ client: LineSocketClient) throws -> Double {
        try #require(number(try client.status()["position"]))
    }

    /// Plays until the position passes `seconds`, pauses there, and answers where.
    private static func pause(after seconds: Double, _ client: LineSocketClient) throws -> Double {
        try waitUntil("playing past \(seconds) s") { try position(client) >= seconds }
        try client.ok("pause")
        return try position(client)
    }

    @Test func aLongTrackResumesTwoSecondsBeforeWhereItWasLeftAcrossRestarts() throws {
        let music = try Self.music()
        defer { music.directory.remove() }
        try withDaemon(music: music.directory.path.string, config: Self.config) { daemon in
            var client = try daemon.client()
            let restartArguments = ["--config", try daemon.writeConfig(Self.config)]

            // Stopped: `play` resumes.
            try client.ok("add", ["paths": ["resume-long.flac", "resume-short.flac"]])
            try client.ok("seek", ["position": 40])
            let stoppedAt = try Self.pause(after: 41.5, client)
            try client.ok("stop")
            let beforeResume = try Self.settledCapture(daemon)
            try client.ok("play")
            #expect(abs(try Self.position(client) - (stoppedAt - 2)) < 0.5)
            try waitUntil("playing on") { try Self.position(client) >= stoppedAt }
            let resumed = try #require(
                Self.firstPosition(of: music.long, inCapture: try daemon.capturedSamples(), after: beforeResume))
            #expect(abs(resumed - (stoppedAt - 2)) < 0.1, "resumed at \(resumed) s, stopped at \(stoppedAt) s")

            // Skipped (paused, so the point is known exactly), then a restart: `jump` resumes.
            try client.ok("seek", ["position": 70])
            let skippedAt = try Self.pause(after: 71, client)
            try client.ok("next")
            #expect(title(try client.status()) == "resume-short")
            daemon.stop()
            try daemon.start(restartArguments)
            client = try daemon.client()
            let beforeJump = try Self.settledCapture(daemon)
            try client.ok("jump", ["index": 0])
            try waitUntil("playing on after the restart") { try Self.position(client) >= skippedAt }
            let afterRestart = try #require(
                Self.firstPosition(of: music.long, inCapture: try daemon.capturedSamples(), after: beforeJump))
            #expect(abs(afterRestart - (skippedAt - 2)) < 0.1, "resumed at \(afterRestart) s, skipped at \(skippedAt) s")

            // Replaced by a jump, then killed: the point was written when it was taken.
            let jumpedAwayAt = try Self.pause(after: skippedAt + 0.5, client)
            try client.ok("jump", ["index": 1])
            daemon.kill9()
            try daemon.start(restartArguments)
            client = try daemon.client()
            try client.ok("jump", ["index": 0])
            #expect(abs(try Self.position(client) - (jumpedAwayAt - 2)) < 0.5)
            try waitUntil("playing after the kill") { try Self.position(client) >= jumpedAwayAt - 1 }
        }
    }

    /// docs/PROTOCOL.md's "add to an empty queue" resumes too: stopped, the queue
    /// cleared, the same track added again starts at its point less 2 s — heard so in
    /// the capture.
    @Test func addingTheStoppedTrackToAClearedQueueResumes() throws {
        let music = try Self.music()
        defer { music.directory.remove() }
        try withDaemon(music: music.directory.path.string, config: Self.config) { daemon in
            let client = try daemon.client()

            try client.ok("add", ["paths": ["resume-long.flac"]])
            try client.ok("seek", ["position": 30])
            let stoppedAt = try Self.pause(after: 31.5, client)
            try client.ok("stop")
            try client.ok("clear")
            let beforeAdd = try Self.settledCapture(daemon)
            try client.ok("add", ["paths": ["resume-long.flac"]])
            #expect(abs(try Self.position(client) - (stoppedAt - 2)) < 0.5)
            try waitUntil("playing on") { try Self.position(client) >= stoppedAt }
            let resumed = try #require(
                Self.firstPosition(of: music.long, inCapture: try daemon.capturedSamples(), after: beforeAdd))
            #expect(abs(resumed - (stoppedAt - 2)) < 0.1, "resumed at \(resumed) s, stopped at \(stoppedAt) s")
        }
    }

    @Test func shortTracksNeverResumeAndATrackThatEndedStartsFromZero() throws {
        let music = try Self.music()
        defer { music.directory.remove() }
        try withDaemon(music: music.directory.path.string, config: Self.config) { daemon in
            let client = try daemon.client()

            try client.ok("add", ["paths": ["resume-short.flac", "resume-long.flac"]])
            try client.ok("seek", ["position": 15])
            _ = try Self.pause(after: 16, client)
            try client.ok("stop")
            try client.ok("play")
            #expect(try Self.position(client) < 1, "a 30 s track under a 60 s threshold starts from 0")

            // The long one: left at 30 s, then played to its end.
            try client.ok("next")
            try client.ok("seek", ["position": 30])
            let leftAt = try Self.pause(after: 31, client)
            try client.ok("jump", ["index": 0])
            #expect(title(try client.status()) == "resume-short")
            // A rescan that reads the file again (its time changed) keeps the track's id,
            // and so its point.
            let later = Date().addingTimeInterval(5)
            try FileManager.default.setAttributes(
                [.modificationDate: later], ofItemAtPath: music.directory.appending("resume-long.flac").string)
            let scan = try client.ok("update", ["wait": true])
            #expect(scan["updated"] as? Int == 1, "\(scan)")
            try client.ok("next")
            let resumedAt = try Self.position(client)
            #expect(abs(resumedAt - (leftAt - 2)) < 0.5, "resumed at \(resumedAt), left at \(leftAt)")
            try client.ok("play")
            try client.ok("seek", ["position": Double(Self.longSeconds) - 1.5])
            try waitUntil("the long track ended") { try client.status()["state"] as? String == "stopped" }
            try client.ok("play")
            #expect(title(try client.status()) == "resume-short")
            try client.ok("next")
            #expect(title(try client.status()) == "resume-long")
            #expect(try Self.position(client) < 1, "a track that played to its end starts from 0")
        }
    }

    @Test func theDefaultThresholdIsTenMinutes() throws {
        let music = TemporaryDirectory("qplay-resume-default")
        defer { music.remove() }
        try Self.lowBitrateStaircase(in: music, name: "twelve-minutes.mp3", seconds: 720)
        try Self.lowBitrateStaircase(in: music, name: "nine-minutes.mp3", seconds: 540)
        try withDaemon(music: music.path.string, config: "watch = false\n") { daemon in
            let client = try daemon.client()

            try client.ok("add", ["paths": ["twelve-minutes.mp3", "nine-minutes.mp3"]])
            try client.ok("seek", ["position": 305])
            let stoppedAt = try Self.pause(after: 306, client)
            try client.ok("stop")
            let beforeResume = try Self.settledCapture(daemon)
            try client.ok("play")
            #expect(abs(try Self.position(client) - (stoppedAt - 2)) < 0.5)
            try waitUntil("playing on") { try Self.position(client) >= stoppedAt - 0.5 }
            // The first second heard is the step of 300–310 s: 200 + 20·30 Hz.
            let captured = Array(try daemon.capturedSamples()[beforeResume...])
            let sounding = try #require(captured.firstIndex { abs($0) > 500 })
            let second = captured[(sounding - sounding % 2)..<(sounding - sounding % 2 + 2 * 44100)]
            let hz = ToneAnalysis.frequency(of: second, channels: 2, sampleRate: 44100)
            #expect(abs(hz - 800) < 8, "heard \(hz) Hz")

            // Nine minutes: under the threshold, it starts from 0 after a stop.
            try client.ok("next")
            try client.ok("seek", ["position": 300])
            _ = try Self.pause(after: 301, client)
            try client.ok("stop")
            try client.ok("play")
            #expect(title(try client.status()) == "nine-minutes")
            #expect(try Self.position(client) < 1)
        }
    }
}
