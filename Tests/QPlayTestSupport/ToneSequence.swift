/// Splits captured stereo audio into runs of one steady tone, to read back which tracks
/// played in which order.
public enum ToneSequence {
    /// The catalogue files whose tones follow each other in `samples` (44.1 kHz stereo
    /// unless given), measured over windows of `window` seconds; runs shorter than
    /// `minimumRun` windows (track edges, scan snippets) are left out.
    public static func files(
        in samples: [Int16], sampleRate: Int = 44100, channels: Int = 2,
        window: Double = 0.25, minimumRun: Int = 3
    ) -> [String] {
        let frames = samples.count / channels
        let step = Int(window * Double(sampleRate))
        var runs: [(file: String, count: Int)] = []
        var start = 0
        while start + step <= frames {
            let slice = samples[(start * channels)..<((start + step) * channels)]
            let hz = ToneAnalysis.frequency(of: slice, channels: channels, sampleRate: sampleRate)
            let nearest = SampleCatalog.nearestTone(to: hz)
            let silent = slice.allSatisfy { abs(Int($0)) < 64 }
            if !silent && abs(nearest.toneHz - hz) < nearest.toneHz * 0.03 {
                if let last = runs.last, last.file == nearest.file {
                    runs[runs.count - 1].count += 1
                } else {
                    runs.append((nearest.file, 1))
                }
            }
            start += step
        }
        var result: [String] = []
        for run in runs where run.count >= minimumRun {
            if result.last != run.file { result.append(run.file) }
        }
        return result
    }
}

extension ToneSequence {
    /// The longest run of frames in which every channel is near zero: a gap in what
    /// was played (the Samples are steady tones, so music never sits at zero).
    public static func longestSilence(in samples: [Int16], channels: Int = 2, threshold: Int16 = 64) -> Int {
        var longest = 0
        var run = 0
        var frame = 0
        while (frame + 1) * channels <= samples.count {
            var silent = true
            for channel in 0..<channels where abs(Int(samples[frame * channels + channel])) >= Int(threshold) {
                silent = false
            }
            run = silent ? run + 1 : 0
            longest = max(longest, run)
            frame += 1
        }
        return longest
    }
}
