import Foundation
import QPlayTestSupport
import Synchronization
import Testing

@testable import QPlayAudio

/// The level meter: RMS and peak in dBFS of what is handed to the output, after
/// volume. Pure measurements on made-up samples, then the real `AudioPlayer` playing
/// FLAC sines of known amplitude (made with sox, lossless) into an ALSA capture.
@Suite struct LevelMeterTests {
    /// One 100 ms window of a sine of `amplitude` (1 = full scale) in both channels,
    /// left-justified as the audio thread carries it.
    private func sineWindow(amplitude: Double, hz: Double = 997, rate: Int = 44100) -> [Int32] {
        (0..<(rate / 10)).flatMap { frame -> [Int32] in
            let value = Int32((amplitude * 32767 * sin(2 * .pi * hz * Double(frame) / Double(rate))).rounded()) << 16
            return [value, value]
        }
    }

    private func measure(_ samples: [Int32]) -> (rms: [Double], peak: [Double]) {
        var meter = LevelMeter()
        let complete = samples.withUnsafeBufferPointer { meter.add($0, channels: 2, rate: 44100, window: 0.1) }
        #expect(complete)
        var rms = [Double](repeating: 0, count: LevelMeter.maxChannels)
        var peak = rms
        let channels = meter.finish(rms: &rms, peak: &peak)
        return (Array(rms[..<channels]), Array(peak[..<channels]))
    }

    @Test func fullScaleSineSilenceAndHalf() {
        let full = measure(sineWindow(amplitude: 1))
        for channel in 0..<2 {
            #expect(abs(full.rms[channel] - -3.01) <= 0.01, "\(full.rms)")
            #expect(abs(full.peak[channel]) <= 0.01, "\(full.peak)")
        }
        let silence = measure([Int32](repeating: 0, count: 8820))
        #expect(silence.rms == [-160, -160])
        #expect(silence.peak == [-160, -160])
        let half = measure(sineWindow(amplitude: 0.5))
        #expect(abs(half.rms[0] - -9.03) <= 0.02, "\(half.rms)")
        #expect(abs(half.peak[0] - -6.02) <= 0.02, "\(half.peak)")
    }

    @Test func channelsAreMeasuredApart() {
        var samples = sineWindow(amplitude: 1)
        for index in stride(from: 1, to: samples.count, by: 2) { samples[index] = 0 }
        let level = measure(samples)
        #expect(abs(level.rms[0] - -3.01) <= 0.01)
        #expect(level.rms[1] == -160)
    }

    @Test func aWindowNeedsItsFrames() {
        var meter = LevelMeter()
        let half = Array(sineWindow(amplitude: 1).prefix(4410))
        #expect(!half.withUnsafeBufferPointer { meter.add($0, channels: 2, rate: 44100, window: 0.1) })
        #expect(half.withUnsafeBufferPointer { meter.add($0, channels: 2, rate: 44100, window: 0.1) })
    }

    /// A stereo FLAC sine at `gain` dB below full scale, 16 bits, no dither.
    private func sine(in dir: TemporaryDirectory, gain: Double, seconds: Int = 3) throws -> String {
        let path = dir.appending("sine\(gain).flac").string
        try GeneratedAudio.run(
            "sox", "-R", "-D", "-n", "-r", "44100", "-c", "2", "-b", "16", path, "synth", "\(seconds)", "sine", "997",
            "gain", "\(gain)")
        return path
    }

    /// Plays `path` at `volume` with metering on and returns the readings taken once the
    /// volume ramp (the first write) is over. Paced as a device plays, so that readings
    /// come at their real rate (the stream of readings keeps only the newest).
    private func readings(of path: String, volume: Int, in dir: TemporaryDirectory) async throws -> [AudioLevel] {
        let capture = try ALSACapture(in: dir)
        let harness = PlayerHarness(capture: capture, pacing: .automatic)
        let player = harness.player
        // Polled from a thread of its own, not awaited: the async pool may be held by
        // other tests that block, and a reading is told apart by its window number.
        let collected = Mutex<[AudioLevel]>([])
        let done = Atomic<Bool>(false)
        let poller = Thread {
            while !done.load(ordering: .relaxed) {
                if let level = player.level, level.window != collected.withLock({ $0.last?.window }) {
                    collected.withLock { $0.append(level) }
                }
                usleep(5_000)
            }
        }
        poller.start()
        player.setMetering(true)
        player.setVolume(volume)
        player.play(PlaybackItem(token: 1, path: .init(path)))
        try await harness.waitFor(.finished(token: 1))
        // The last windows are published after `finished`.
        try await Task.sleep(for: .milliseconds(300))
        done.store(true, ordering: .relaxed)
        await harness.shutdown()
        let levels = collected.withLock { $0 }
        // None read twice (a thread held off the CPU for a window may miss one).
        #expect(Set(levels.map(\.window)).count == levels.count)
        return Array(levels.dropFirst(2))
    }

    @Test func minusSixDBFSSineReadsAsItsLevel() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let levels = try await readings(of: try sine(in: dir, gain: -6), volume: 100, in: dir)
        try #require(levels.count >= 15, "3 s at 10 readings a second: got \(levels.count)")
        // The last window may hold the file's last few milliseconds only.
        for level in levels.dropLast() {
            #expect(level.rms.count == 2)
            for channel in 0..<2 {
                #expect(abs(level.rms[channel] - -9.03) <= 0.1, "rms \(level.rms)")
                #expect(abs(level.peak[channel] - -6.0) <= 0.1, "peak \(level.peak)")
            }
        }
    }

    @Test func volumeLowersTheLevelByTheCurvesGain() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = try sine(in: dir, gain: -6)
        let full = try await readings(of: path, volume: 100, in: dir)
        let half = try await readings(of: path, volume: 50, in: dir)
        try #require(full.count >= 15 && half.count >= 15, "\(full.count), \(half.count) readings")
        // Volume 50 is (0.5)³ in Q15, as `SoftwareVolume` applies it.
        let curve = 20 * log10(Double(SoftwareVolume.gain(percent: 50)) / Double(SoftwareVolume.unity))
        #expect(abs(curve - -18.06) < 0.01)
        let fullRMS = full.dropLast().map { $0.rms[0] }.reduce(0, +) / Double(full.count - 1)
        let halfRMS = half.dropLast().map { $0.rms[0] }.reduce(0, +) / Double(half.count - 1)
        let halfPeak = half.dropLast().map { $0.peak[0] }.max()!
        #expect(abs((halfRMS - fullRMS) - curve) <= 0.1, "full \(fullRMS), at 50: \(halfRMS), curve \(curve)")
        #expect(abs(halfPeak - (-6.0 + curve)) <= 0.1, "peak at 50: \(halfPeak)")
    }

    @Test func offMeasuresNothing() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let levels = try await readings(of: try sine(in: dir, gain: -6, seconds: 1), volume: 100, in: dir)
        #expect(!levels.isEmpty)
        let capture = try ALSACapture(in: dir)
        let harness = PlayerHarness(capture: capture, pacing: .never)
        let player = harness.player
        let windows = Mutex(0)
        let counter = Task {
            for await _ in player.levels { windows.withLock { $0 += 1 } }
        }
        player.play(PlaybackItem(token: 1, path: .init(try sine(in: dir, gain: -6, seconds: 1))))
        try await harness.waitFor(.finished(token: 1))
        try await Task.sleep(for: .milliseconds(300))
        #expect(player.level == nil)
        #expect(windows.withLock { $0 } == 0)
        await harness.shutdown()
        counter.cancel()
    }
}
