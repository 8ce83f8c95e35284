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
