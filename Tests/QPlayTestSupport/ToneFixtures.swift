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
    public var artist = "Stress Tones"
    public var album = "Fixtures"
    /// ID3v2 user text frames (`TXXX`) by description, e.g. `REPLAYGAIN_TRACK_GAIN`.
    public var userText: [String: String] = [:]

    public init(file: String, title: String, toneHz: Double, seconds: Double, sampleRate: Int, channels: Int) {
        self.file = file
        self.title = title
        self.toneHz = toneHz
        self.seconds = seconds
        self.sampleRate = sampleRate
        self.channels = channels
    }

    public var description: String { file }

    public init(
        file: String, title: String, toneHz: Double, seconds: Double, sampleRate: Int = 44100, channels: Int = 2,
        artist: String = "Stress Tones", album: String = "Fixtures", userText: [String: String] = [:]
    ) {
        self.file = file
        self.title = title
        self.toneHz = toneHz
        self.seconds = seconds
        self.sampleRate = sampleRate
        self.channels = channels
        self.artist = artist
        self.album = album
        self.userText = userText
    }
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
                "sox", "-R", "-n", "-r", "\(fixture.sampleRate)", "-c", "\(fixture.channels)", "-b", "16", wav.string,
            "synth", "\(fixture.seconds)", "sine", "\(fixture.toneHz)", "vol", "0.5")
            // lame's own ReplayGain (in its LAME header) is left out: only the tags a
            // fixture asks for are there.
            let userText = fixture.userText.sorted { $0.key < $1.key }.flatMap { ["--tv", "TXXX=\($0.key)=\($0.value)"] }
            try run(
                ["lame", "--quiet", "--noreplaygain", "-b", "128", "--tt", fixture.title, "--ta", fixture.artist,
                 "--tl", fixture.album, "--tn", "\(index + 1)"] + userText + [wav.string, mp3.string])
            try? FileManager.default.removeItem(atPath: wav.string)
            return mp3
        }
    }

    /// `file` decoded by lame (its own MP3 decoder, not the one under test) to
    /// interleaved 16-bit samples: the reference a capture's level is measured against.
    public static func decodedByLame(_ file: FilePath, in directory: TemporaryDirectory) throws -> [Int16] {
        let wav = directory.appending("\(file.lastComponent?.string ?? "decoded").decoded.wav")
        try run("lame", "--quiet", "--decode", file.string, wav.string)
        defer { try? FileManager.default.removeItem(atPath: wav.string) }
        let bytes = try TemporaryDirectory.read(wav)
        // lame writes the canonical 44-byte header: the samples follow the "data" chunk's size.
        guard bytes.count > 44, bytes[36..<40].elementsEqual("data".utf8) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "\(wav) is not a plain WAV"])
        }
        return stride(from: 44, to: bytes.count - 1, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
    }

    /// Root mean square of `samples`, full scale 32768.
    public static func rms(_ samples: some Collection<Int16>) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(samples.count)).squareRoot()
    }

    private static func run(_ arguments: String...) throws {
        try run(arguments)
    }

    private static func run(_ arguments: [String]) throws {
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments)
        guard result.status == 0 else {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [NSLocalizedDescriptionKey: "\(arguments) exited \(result.status): \(result.stderr)"])
        }
    }
}
