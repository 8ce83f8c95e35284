/// A stretch of captured audio in which one tone of a table sounds.
public struct ToneRun: Sendable, Equatable, CustomStringConvertible {
    /// Index into the table the runs were measured against.
    public var tone: Int
    public var startFrame: Int
    public var frames: Int

    public var endFrame: Int { startFrame + frames }

    public var description: String { "tone \(tone) @\(startFrame)+\(frames)" }
}

/// `ToneSequence` for a table of tones of the test's own (`ToneFixtures`) rather than
/// the Samples catalogue, keeping where in the capture each run lies.
public enum ToneRuns {
    /// Consecutive windows of `window` seconds that measure as the same tone of `tones`
    /// (within `tolerance`, relative), merged. Silent windows and windows that match no
    /// tone (a window across a track change measures somewhere between two tones) end a
    /// run and belong to none.
    public static func runs(
        in samples: [Int16], tones: [Double], sampleRate: Int = 44100, channels: Int = 2,
        window: Double = 0.05, tolerance: Double = 0.03
    ) -> [ToneRun] {
        let frames = samples.count / channels
        let step = max(1, Int(window * Double(sampleRate)))
        var runs: [ToneRun] = []
        var previousWindowMatched = false
        var start = 0
        while start + step <= frames {
            let slice = samples[(start * channels)..<((start + step) * channels)]
            var match: Int?
            if !slice.allSatisfy({ abs(Int($0)) < 64 }) {
                let hz = ToneAnalysis.frequency(of: slice, channels: channels, sampleRate: sampleRate)
                if let nearest = tones.indices.min(by: { abs(tones[$0] - hz) < abs(tones[$1] - hz) }),
                    abs(tones[nearest] - hz) <= tones[nearest] * tolerance
                {
                    match = nearest
                }
            }
            if let match {
                if previousWindowMatched, let last = runs.last, last.tone == match, last.endFrame == start {
                    runs[runs.count - 1].frames += step
                } else {
                    runs.append(ToneRun(tone: match, startFrame: start, frames: step))
                }
            }
            previousWindowMatched = match != nil
            start += step
        }
        return runs
    }

    /// The runs of at least `minimumFrames` (shorter ones are edges and scan snippets, or
    /// tracks heard too briefly to tell), with neighbours of the same tone joined across
    /// whatever lay between them: the order in which tones were heard.
    public static func heard(_ runs: [ToneRun], minimumFrames: Int) -> [ToneRun] {
        var result: [ToneRun] = []
        for run in runs where run.frames >= minimumFrames {
            if let last = result.last, last.tone == run.tone {
                result[result.count - 1].frames = run.endFrame - last.startFrame
            } else {
                result.append(run)
            }
        }
        return result
    }
}
