import Foundation
import SystemPackage

/// Ogg Vorbis and Opus files made for a test: the source is a WAV of an exact number
/// of frames made with sox, encoded with oggenc or opusenc (both keep the source's
/// length exactly; opusenc only when the source is at 48 kHz, its decode rate).
extension GeneratedAudio {
    public enum OggCodec: String, Sendable, CaseIterable, CustomStringConvertible {
        case vorbis, opus

        public var fileExtension: String { self == .vorbis ? "ogg" : "opus" }
        public var description: String { rawValue }
    }

    /// A 16-bit WAV of `frames` frames: a steady sine at `hz`, or a sweep from `hz` to
    /// `toHz` (every moment sounds different, so where a seek landed can be found from
    /// the audio), or with `noise` pink noise (which the encoders cannot squeeze into a
    /// few pages, as they do a sine: damage then hits audio, not headers).
    public static func wav(
        in directory: TemporaryDirectory, name: String, frames: Int, hz: Int, toHz: Int? = nil, noise: Bool = false,
        rate: Int, channels: Int
    ) throws -> FilePath {
        let wav = directory.appending(name)
        let signal = noise ? ["pinknoise"] : ["sine", toHz.map { "\(hz)-\($0)" } ?? "\(hz)"]
        // The rate and channels are the null input's: given for the output instead,
        // sox would synthesise at its default 48 kHz and resample (another length).
        try run(
            ["sox", "-R", "-r", "\(rate)", "-c", "\(channels)", "-n", "-b", "16", wav.string, "synth", "\(frames)s"]
                + signal + ["vol", "0.5"])
        return wav
    }

    /// Frames `range` of `wav`, as a WAV of their own (an album's tracks cut from one
    /// continuous recording).
    public static func cut(_ wav: FilePath, frames range: Range<Int>, to name: String, in directory: TemporaryDirectory) throws -> FilePath {
        let part = directory.appending(name)
        try run("sox", "-R", wav.string, part.string, "trim", "\(range.lowerBound)s", "\(range.count)s")
        return part
    }

    /// `wav` encoded with `codec` into `name` (Vorbis quality 5, Opus `opusBitrate`
    /// kb/s: below about 32 per channel opusenc mixes surround down).
    public static func encode(
        _ wav: FilePath, as codec: OggCodec, to name: String, in directory: TemporaryDirectory,
        opusBitrate: Int = 96
    ) throws -> FilePath {
        let file = directory.appending(name)
        // Both encoders seed their stream's serial number with the time: two files made
        // in the same second would share it, and chained they would be one broken stream.
        let serial = "\(UInt32.random(in: 1..<UInt32.max))"
        switch codec {
        case .vorbis: try run("oggenc", "--quiet", "-q", "5", "--serial", serial, "-o", file.string, wav.string)
        case .opus:
            try run("opusenc", "--quiet", "--bitrate", "\(opusBitrate)", "--serial", serial, wav.string, file.string)
        }
        return file
    }

    /// The frames in `wav` (its data chunk's size over the frame size), read from the
    /// file itself rather than trusting what sox was asked for.
    public static func frameCount(ofWAV wav: FilePath) throws -> Int {
        let (_, data, frameSize) = try dataChunk(ofWAV: wav)
        return data.count / frameSize
    }

    /// The interleaved 16-bit samples of `wav`.
    public static func samples(ofWAV wav: FilePath) throws -> [Int16] {
        let (bytes, data, _) = try dataChunk(ofWAV: wav)
        return stride(from: data.lowerBound, to: data.upperBound - 1, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
    }

    private static func dataChunk(ofWAV wav: FilePath) throws -> (bytes: [UInt8], data: Range<Int>, frameSize: Int) {
        let bytes = try TemporaryDirectory.read(wav)
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        var offset = 12
        var frameSize = 0
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let size = u32(offset + 4)
            if id == "fmt " { frameSize = u16(offset + 8 + 12) }
            if id == "data", frameSize > 0 {
                let end = min(offset + 8 + size, bytes.count)
                return (bytes, (offset + 8)..<(end - (end - offset - 8) % frameSize), frameSize)
            }
            offset += 8 + size + size % 2
        }
        throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "\(wav): no data chunk"])
    }
}
