import Testing

@testable import QPlayAudio

/// The fade factor of `SoftwareVolume`: even pace over the audio written, on the cubic
/// curve, at once for 0 seconds.
@Suite struct SoftwareVolumeFadeTests {
    /// One write of `frames` stereo frames of full-scale samples at 1000 Hz; answers the
    /// first and last gains applied (as fractions of unity).
    static func write(_ volume: inout SoftwareVolume, frames: Int) -> (first: Double, last: Double) {
        var samples = [Int32](repeating: 1 << 30, count: frames * 2)
        samples.withUnsafeMutableBufferPointer {
            volume.apply(to: $0, channels: 2, sampleRate: 1000, itemGain: SoftwareVolume.unity)
        }
        return (Double(samples[0]) / Double(1 << 30), Double(samples[samples.count - 1]) / Double(1 << 30))
    }

    @Test func aFadeOutFallsSteadilyToSilenceOverItsSeconds() {
        var volume = SoftwareVolume()
        #expect(volume.isUnity)
        volume.fade(to: 0, over: 2)
        #expect(!volume.isUnity)
        // Each write ramps from where the last one ended: its first sample tells.
        var firsts: [Double] = []
        for n in 0..<21 {
            firsts.append(Self.write(&volume, frames: 100).first)
            let ended = volume.takeFadeEnded()
            #expect(ended == (n == 19), "write \(n)")
        }
        // 0.1 s per write: position on the curve 1 − 0.05 n, the gain its cube.
        for (n, gain) in firsts.enumerated() {
            let position = max(0, 1 - 0.05 * Double(n))
            #expect(abs(gain - position * position * position) < 0.002, "write \(n): \(gain)")
        }
        #expect(firsts.last == 0)
        #expect(Self.write(&volume, frames: 100) == (0, 0))
    }

    @Test func zeroSecondsIsAtOnceAndAFadeInRisesFromThere() {
        var volume = SoftwareVolume()
        volume.fade(to: 0, over: 0)
        volume.fade(to: 1, over: 1)
        let first = Self.write(&volume, frames: 100)
        #expect(first.first < 0.001, "the fade-in did not start from silence: \(first)")
        #expect(first.last > 0 && first.last < 0.002)
        var previous = first.last
        for _ in 0..<9 {
            let gain = Self.write(&volume, frames: 100).last
            #expect(gain > previous)
            previous = gain
        }
        let ended = volume.takeFadeEnded()
        #expect(ended)
        // Reached exactly: the volume is unity again and the samples untouched.
        #expect(volume.isUnity)
        #expect(Self.write(&volume, frames: 100) == (1, 1))
    }

    @Test func aFadeStopsWhereItIsTurnedBack() {
        var volume = SoftwareVolume()
        volume.fade(to: 0, over: 1)
        _ = Self.write(&volume, frames: 500)
        volume.fade(to: 1, over: 0)
        #expect(Self.write(&volume, frames: 100) == (1, 1))
        #expect(volume.isUnity)
    }
}
