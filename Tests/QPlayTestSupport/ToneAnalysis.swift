import Foundation

/// Measures the tone in captured PCM, to tell which Sample played.
public enum ToneAnalysis {
    /// The frequency of a steady tone in one channel of interleaved S16 samples, from
    /// its rising zero crossings. The first and last tenth are left out so that edges
    /// (a track change, a fade) do not count.
    public static func frequency(
        of samples: some RandomAccessCollection<Int16>, channels: Int, channel: Int = 0,
        sampleRate: Int
    ) -> Double {
        let frames = samples.count / channels
        let first = frames / 10
        let last = frames - frames / 10
        guard last - first > 2 else { return 0 }
        var crossings = 0
        var firstCrossing: Int?
        var lastCrossing = 0
        let base = samples.startIndex
        var previous = samples[samples.index(base, offsetBy: first * channels + channel)]
        for frame in (first + 1)..<last {
            let value = samples[samples.index(base, offsetBy: frame * channels + channel)]
            if previous < 0 && value >= 0 {
                if firstCrossing == nil { firstCrossing = frame } else { crossings += 1 }
                lastCrossing = frame
            }
            previous = value
        }
        guard let firstCrossing, crossings > 0 else { return 0 }
        // Whole periods between the first and last crossing: no partial-period error.
        return Double(crossings) * Double(sampleRate) / Double(lastCrossing - firstCrossing)
    }

    /// The amplitude (0…1 of full scale) of the component at `hz` in one channel of
    /// interleaved S16 samples: a Goertzel filter over the middle 80 % (edges left out
    /// as above), Hann-windowed so that a strong tone elsewhere does not leak into the
    /// bin and pass for energy at `hz`.
    public static func amplitude(
        atHz hz: Double, of samples: some RandomAccessCollection<Int16>, channels: Int, channel: Int = 0,
        sampleRate: Int
    ) -> Double {
        let frames = samples.count / channels
        let first = frames / 10
        let count = frames - 2 * first
        guard count > 2 else { return 0 }
        let coefficient = 2 * cos(2 * Double.pi * hz / Double(sampleRate))
        var previous = 0.0
        var beforePrevious = 0.0
        var windowSum = 0.0
        let base = samples.startIndex
        for index in 0..<count {
            let window = 0.5 - 0.5 * cos(2 * Double.pi * Double(index) / Double(count - 1))
            windowSum += window
            let value = Double(samples[samples.index(base, offsetBy: (first + index) * channels + channel)]) / 32768
            let current = value * window + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        // A sine of amplitude A gives a bin magnitude of A × (window sum) / 2.
        return 2 * power.squareRoot() / windowSum
    }

    /// `amplitude` relative to `reference`, in dB.
    public static func decibels(_ amplitude: Double, relativeTo reference: Double) -> Double {
        20 * log10(max(amplitude, 1e-12) / reference)
    }
}

extension ToneAnalysis {
    /// The largest difference between neighbouring samples of one channel over `frames`
    /// (clamped to what `samples` holds): a gap, a lost stretch or a click where two
    /// tracks of one tone meet shows as a step far above the tone's own.
    public static func largestStep(
        in samples: [Int16], channels: Int, channel: Int = 0, frames: Range<Int>
    ) -> Int {
        let end = min(frames.upperBound, samples.count / channels)
        var largest = 0
        var frame = max(1, frames.lowerBound)
        while frame < end {
            let step = abs(Int(samples[frame * channels + channel]) - Int(samples[(frame - 1) * channels + channel]))
            largest = max(largest, step)
            frame += 1
        }
        return largest
    }
}
