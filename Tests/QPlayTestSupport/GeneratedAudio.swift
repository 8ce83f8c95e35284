import Foundation
import SystemPackage

/// MP3 files made for a test with sox and lame (the tools that made Samples/).
public enum GeneratedAudio {
    /// A sine sweep from `fromHz` to `toHz`: every moment sounds different, so where a
    /// seek landed can be found from the audio itself. `vbr`: lame -V 2, else CBR 128.
    public static func sweep(
        in directory: TemporaryDirectory, name: String = "sweep.mp3", seconds: Int = 6,
        fromHz: Int = 200, toHz: Int = 3000, vbr: Bool = true, rate: Int = 44100, channels: Int = 2
    ) throws -> FilePath {
        let wav = directory.appending("\(name).wav")
        let mp3 = directory.appending(name)
        try run(
            "sox", "-R", "-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "16", wav.string,
        "synth", "\(seconds)", "sine", "\(fromHz)-\(toHz)", "vol", "0.5")
        try run("lame", "--quiet", vbr ? "-V" : "-b", vbr ? "2" : "128", wav.string, mp3.string)
        try? FileManager.default.removeItem(atPath: wav.string)
        return mp3
    }

    /// Sine tones at `hz` mixed at equal levels (together half of full scale) in a
    /// 320 kbps MP3 with lame's low-pass filter off, so content up to the Nyquist
    /// frequency of `rate` stays in the file (lame cuts above ~20 kHz by default).
    public static func tones(
        in directory: TemporaryDirectory, name: String = "tones.mp3", hz: [Int], seconds: Int = 3,
        rate: Int = 48000, channels: Int = 2
    ) throws -> FilePath {
        let waves = try hz.map { tone in
            let wav = directory.appending("\(name)-\(tone).wav")
            try run(
                "sox", "-R", "-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "16", wav.string,
            "synth", "\(seconds)", "sine", "\(tone)", "vol", "\(0.5 / Double(hz.count))")
            return wav
        }
        let mixed = directory.appending("\(name).wav")
        let mp3 = directory.appending(name)
        if waves.count == 1 {
            try FileManager.default.moveItem(atPath: waves[0].string, toPath: mixed.string)
        } else {
            // -v 1 for each input: sox -m would otherwise scale each by 1/n again.
            try run(["sox", "-R", "-m"] + waves.flatMap { ["-v", "1", $0.string] } + [mixed.string])
        }
        try run("lame", "--quiet", "-b", "320", "--lowpass", "-1", mixed.string, mp3.string)
        for wav in waves + [mixed] { try? FileManager.default.removeItem(atPath: wav.string) }
        return mp3
    }

    public static func run(_ arguments: String...) throws {
        try run(arguments)
    }

    public static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(arguments) failed"])
        }
    }
}

/// Comparing captured PCM with a reference decode.
public enum PCMCompare {
    /// The first frame where `a` and `b` differ (or the shorter length).
    public static func firstMismatch(_ a: [Int16], _ b: [Int16], channels: Int, from start: Int = 0) -> Int {
        let frames = min(a.count, b.count) / channels
        var frame = start
        while frame < frames {
            for channel in 0..<channels where a[frame * channels + channel] != b[frame * channels + channel] {
                return frame
            }
            frame += 1
        }
        return frames
    }

    /// Larger than any two samples can differ: what a frame one side does not have counts.
    public static let missing = Int(UInt16.max) + 1

    /// The largest sample difference between `count` frames of `a` from `aFrame` and of
    /// `b` from `bFrame`; `missing` when either has fewer frames there (a short capture
    /// fails the comparison instead of reading past its end).
    public static func maxDifference(
        _ a: [Int16], at aFrame: Int, _ b: [Int16], at bFrame: Int, frames count: Int, channels: Int
    ) -> Int {
        guard count >= 0, aFrame >= 0, bFrame >= 0, (aFrame + count) * channels <= a.count,
            (bFrame + count) * channels <= b.count
        else { return missing }
        var worst = 0
        for index in 0..<(count * channels) {
            worst = max(worst, abs(Int(a[aFrame * channels + index]) - Int(b[bFrame * channels + index])))
        }
        return worst
    }

    /// The frame offset into `reference` (searched within `range`) where `window` frames
    /// of `captured` from `capturedFrame` fit best (least squared difference, channel 0);
    /// nil when `captured` has no such window or no offset in `range` fits in `reference`.
    public static func bestAlignment(
        of captured: [Int16], at capturedFrame: Int, window: Int, in reference: [Int16], range: Range<Int>,
        channels: Int
    ) -> Int? {
        guard capturedFrame >= 0, (capturedFrame + window) * channels <= captured.count else { return nil }
        var best: Int?
        var bestError = Int64.max
        let referenceFrames = reference.count / channels
        for offset in range where offset >= 0 && offset + window <= referenceFrames {
            var error: Int64 = 0
            for frame in 0..<window {
                let d = Int64(captured[(capturedFrame + frame) * channels]) - Int64(reference[(offset + frame) * channels])
                error += d * d
                if error >= bestError { break }
            }
            if best == nil || error < bestError {
                bestError = error
                best = offset
            }
        }
        return best
    }
}
