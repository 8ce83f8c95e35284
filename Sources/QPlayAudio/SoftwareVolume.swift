/// Software gain on the PCM handed to the output.
///
/// Curve: gain = (percent / 100)³, the cubic mapping PulseAudio and alsamixer use for
/// their volume sliders: equal steps sound roughly equal (50 % ≈ −18 dB, 25 % ≈ −36 dB),
/// 0 is silence and 100 is bit-exact (the samples are not touched at all). The gain is
/// Q15 fixed point and each change is ramped linearly across one write (20–60 ms),
/// which avoids the click of a gain step.
struct SoftwareVolume {
    static let unity: Int64 = 1 << 15
    private(set) var percent = 100
    private var gain: Int64 = unity
    private var target: Int64 = unity

    mutating func set(percent newValue: Int) {
        percent = min(100, max(0, newValue))
        target = Self.gain(percent: percent)
    }

    static func gain(percent: Int) -> Int64 {
        let fraction = Double(percent) / 100
        return Int64((fraction * fraction * fraction * Double(unity)).rounded())
    }

    /// Whether samples pass through untouched.
    var isUnity: Bool { gain == Self.unity && target == Self.unity }

    /// Scales the first `count` samples of `samples` in place; ramps from the previous
    /// gain to the new one across them.
    mutating func apply(inPlace samples: inout [Int32], count: Int, channels: Int) {
        let frames = count / channels
        let start = gain
        let end = target
        samples.withUnsafeMutableBufferPointer { buffer in
            if start == end {
                for index in 0..<count {
                    buffer[index] = Self.scaled(buffer[index], end)
                }
                return
            }
            for frame in 0..<frames {
                let frameGain = start + (end - start) * Int64(frame) / Int64(max(1, frames))
                for channel in 0..<channels {
                    let index = frame * channels + channel
                    buffer[index] = Self.scaled(buffer[index], frameGain)
                }
            }
        }
        gain = end
    }

    @inline(__always)
    private static func scaled(_ sample: Int32, _ gain: Int64) -> Int32 {
        Int32(clamping: (Int64(sample) * gain) >> 15)
    }
}
