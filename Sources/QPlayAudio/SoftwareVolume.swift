/// Software gain on the PCM handed to the output: the volume and each item's own gain
/// (ReplayGain), applied together in one multiplication per sample.
///
/// Volume curve: gain = (percent / 100)³, the cubic mapping PulseAudio and alsamixer
/// use for their volume sliders: equal steps sound roughly equal (50 % ≈ −18 dB, 25 % ≈
/// −36 dB), 0 is silence and 100 is bit-exact (the samples are not touched at all). The
/// gains are Q15 fixed point. A volume change is ramped linearly across one write
/// (20–60 ms), which avoids the click of a gain step; an item's gain steps at the
/// item's first sample, where the music changes anyway (a write never spans two item
/// gains: see `OutputStage.write`).
struct SoftwareVolume {
    static let unity: Int64 = 1 << 15
    private(set) var percent = 100
    private var gain: Int64 = unity
    private var target: Int64 = unity
    /// The fade's position on the volume curve (1: no fade, 0: silence), its target and
    /// how far it moves per second of audio.
    private var fade = 1.0
    private var fadeTarget = 1.0
    private var fadeSpeed = Double.infinity
    /// A fade with a duration runs; its end is reported (`takeFadeEnded`).
    private var fadeReported = true
    private var fadeEnded = false

    /// Moves the fade to `factor` (0...1) over `seconds` of audio; 0 sets it at once (the
    /// next write starts there: an alarm's fade-in starts from silence, not from a ramp
    /// down).
    mutating func fade(to factor: Double, over seconds: Double) {
        fadeTarget = factor.isFinite ? min(1, max(0, factor)) : 1
        if seconds.isFinite && seconds > 0 {
            fadeSpeed = abs(fadeTarget - fade) / seconds
            fadeReported = false
        } else {
            fade = fadeTarget
            fadeSpeed = .infinity
        }
    }

    /// The fade after `frames` more frames at `sampleRate`.
    private mutating func advanceFade(frames: Int, sampleRate: Int) -> Double {
        guard fade != fadeTarget else { return fade }
        let step = fadeSpeed.isFinite ? fadeSpeed * Double(frames) / Double(max(1, sampleRate)) : .infinity
        // Within rounding of the target is the target: a fade-in ends bit-exact.
        if abs(fadeTarget - fade) <= step * (1 + 1e-9) + 1e-12 {
            fade = fadeTarget
            if !fadeReported {
                fadeReported = true
                fadeEnded = true
            }
        } else {
            fade += fade < fadeTarget ? step : -step
        }
        return fade
    }

    mutating func set(percent newValue: Int) {
        percent = min(100, max(0, newValue))
        target = Self.gain(percent: percent)
    }

    static func gain(percent: Int) -> Int64 {
        let fraction = Double(percent) / 100
        return fixedPoint(fraction * fraction * fraction)
    }

    /// A linear amplitude factor in Q15; 1 is exactly `unity`. A factor that is no
    /// amplitude (negative, not a number) leaves the samples alone rather than mute them.
    static func fixedPoint(_ factor: Double) -> Int64 {
        guard factor.isFinite, factor >= 0 else { return unity }
        // Beyond any gain a tag can ask for (+66 dB), and far below where a sample times
        // the gain would overflow 64 bits.
        return Int64((min(factor, 4096) * Double(unity)).rounded())
    }

    /// Whether a fade with a duration reached its target since the last call.
    mutating func takeFadeEnded() -> Bool {
        defer { fadeEnded = false }
        return fadeEnded
    }

    /// Whether the volume leaves samples untouched (items may still carry a gain).
    var isUnity: Bool { gain == Self.unity && target == Self.unity && fade == 1 && fadeTarget == 1 }

    /// Scales `samples` (whole frames, all of one item gain) in place by that gain
    /// times the volume; the volume ramps from the previous gain to the new one across
    /// them.
    mutating func apply(
        to samples: UnsafeMutableBufferPointer<Int32>, channels: Int, sampleRate: Int, itemGain: Int64
    ) {
        let frames = samples.count / channels
        let fadeStart = fade
        let fadeEnd = advanceFade(frames: frames, sampleRate: sampleRate)
        let start = Self.faded(gain, fadeStart)
        let end = Self.faded(target, fadeEnd)
        gain = target
        if start == end {
            let combined = Self.combined(end, itemGain)
            for index in samples.indices { samples[index] = Self.scaled(samples[index], combined) }
            return
        }
        for frame in 0..<frames {
            let volume = start + (end - start) * Int64(frame) / Int64(max(1, frames))
            let combined = Self.combined(volume, itemGain)
            for index in (frame * channels)..<(frame * channels + channels) {
                samples[index] = Self.scaled(samples[index], combined)
            }
        }
    }

    /// A Q15 volume gain times a fade position on the cubic curve.
    private static func faded(_ volume: Int64, _ fade: Double) -> Int64 {
        fade >= 1 ? volume : Int64((Double(volume) * fade * fade * fade).rounded())
    }

    /// The product of two Q15 gains, rounded; unity times unity is unity exactly.
    @inline(__always)
    private static func combined(_ volume: Int64, _ item: Int64) -> Int64 {
        (volume * item + (1 << 14)) >> 15
    }

    @inline(__always)
    private static func scaled(_ sample: Int32, _ gain: Int64) -> Int32 {
        Int32(clamping: (Int64(sample) * gain) >> 15)
    }
}
