import Foundation
import SystemPackage

/// One short MP3 of a single sine tone, tagged so the library can find it: the capture
/// of a test that plays several of them tells which one sounded when.
public struct ToneFixture: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var title: String
    public var toneHz: Double
    public var seconds: Double
    public var sampleRate: Int
    public var channels: Int

    public init(file: String, title: String, toneHz: Double, seconds: Double, sampleRate: Int, channels: Int) {
        self.file = file
        self.title = title
        self.toneHz = toneHz
        self.seconds = seconds
        self.sampleRate = sampleRate
        self.channels = channels
    }

    public var description: String { file }
}

/// Tone MP3s made with sox and lame (as `GeneratedAudio` makes its sweeps).
public enum ToneFixtures {
    /// Eight tones about a major third apart: far enough for `ToneRuns` to tell even a
    /// mixed window from a neighbour, and short (1–3 s) so that tracks end often. Two
    /// are not in the output's format (48 kHz, mono), so conversion is on the path too.
    public static let standard: [ToneFixture] = [
        ToneFixture(file: "tone-1.mp3", title: "Tone 1", toneHz: 262, seconds: 1.0, sampleRate: 44100, channels: 2),
        ToneFixture(file: "tone-2.mp3", title: "Tone 2", toneHz: 330, seconds: 2.6, sampleRate: 44100, channels: 2),
        ToneFixture(file: "tone-3.mp3", title: "Tone 3", toneHz: 415, seconds: 1.4, sampleRate: 44100, channels: 2),
        ToneFixture(file: "tone-4.mp3", title: "Tone 4", toneHz: 523, seconds: 3.0, sampleRate: 44100, channels: 2),
        ToneFixture(file: "tone-5.mp3", title: "Tone 5", toneHz: 659, seconds: 1.8, sampleRate: 48000, channels: 2),
        ToneFixture(file: "tone-6.mp3", title: "Tone 6", toneHz: 784, seconds: 2.2, sampleRate: 44100, channels: 1),
        ToneFixture(file: "tone-7.mp3", title: "Tone 7", toneHz: 988, seconds: 1.2, sampleRate: 44100, channels: 2),
        ToneFixture(file: "tone-8.mp3", title: "Tone 8", toneHz: 1245, seconds: 2.0, sampleRate: 44100, channels: 2),
    ]

    /// Writes `fixtures` into `directory` (one file each, named `file`) and returns
    /// their paths in the same order.
    public static func generate(
        _ fixtures: [ToneFixture] = standard, in directory: TemporaryDirectory
    ) throws -> [FilePath] {
        try fixtures.enumerated().map { index, fixture in
            let wav = directory.appending("\(fixture.file).wav")
            let mp3 = directory.appending(fixture.file)
            try run(
                "sox", "-n", "-r", "\(fixture.sampleRate)", "-c", "\(fixture.channels)", "-b", "16", wav.string,
                "synth", "\(fixture.seconds)", "sine", "\(fixture.toneHz)", "vol", "0.5")
            try run(
                "lame", "--quiet", "-b", "128", "--tt", fixture.title, "--ta", "Stress Tones",
                "--tl", "Fixtures", "--tn", "\(index + 1)", wav.string, mp3.string)
            try? FileManager.default.removeItem(atPath: wav.string)
            return mp3
        }
    }

    private static func run(_ arguments: String...) throws {
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments)
        guard result.status == 0 else {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [NSLocalizedDescriptionKey: "\(arguments) exited \(result.status): \(result.stderr)"])
        }
    }
}
