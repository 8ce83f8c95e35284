import Foundation
import SystemPackage

/// AAC, ALAC, WAV, AIFF and WavPack files made for a test with Debian's ffmpeg and
/// wavpack from PCM made with sox: the formats qplay decodes through FFmpeg.
extension GeneratedAudio {
    public enum FFmpegKind: String, Sendable, CaseIterable, CustomStringConvertible {
        /// AAC-LC in MP4 with an edit list of the track's exact length (ffmpeg's movie
        /// time scale set to the rate: its default of 1,000 rounds the edit to a
        /// millisecond).
        case aac
        /// AAC-LC as ADTS frames.
        case adts
        case alac, wav, floatWAV, aiff, wavPack

        public var fileExtension: String {
            switch self {
            case .aac, .alac: "m4a"
            case .adts: "aac"
            case .wav, .floatWAV: "wav"
            case .aiff: "aiff"
            case .wavPack: "wv"
            }
        }

        /// The wire format qplay names the files with.
        public var wireName: String {
            switch self {
            case .aac, .adts: "aac"
            case .alac: "alac"
            case .wav, .floatWAV: "wav"
            case .aiff: "aiff"
            case .wavPack: "wavpack"
            }
        }

        public var isLossless: Bool { self != .aac && self != .adts }
        public var description: String { rawValue }
    }

    /// `pcm` encoded as `kind` into `name` (plus `arguments` for ffmpeg before the
    /// output, `-metadata title=…`, or for wavpack, `-w Title=…`); `rate` and channels
    /// are the PCM's.
    @discardableResult
    public static func encode(
        _ pcm: GeneratedPCM, as kind: FFmpegKind, to name: String, in directory: TemporaryDirectory,
        arguments: [String] = []
    ) throws -> FilePath {
        let wav = directory.appending("\(name)-source.wav")
        let output = directory.appending(name)
        try writeWAV(pcm, to: wav, in: directory)
        defer { try? FileManager.default.removeItem(atPath: wav.string) }
        if kind == .wavPack {
            try run(["wavpack", "-q", "-y"] + arguments + [wav.string, "-o", output.string])
            return output
        }
        let codec: [String] =
            switch kind {
            case .aac: ["-c:a", "aac", "-b:a", "192k", "-movie_timescale", "\(pcm.sampleRate)"]
            case .adts: ["-c:a", "aac", "-b:a", "192k", "-f", "adts"]
            case .alac: ["-c:a", "alac"]
            case .wav: ["-c:a", pcm.bits == 24 ? "pcm_s24le" : "pcm_s16le"]
            case .floatWAV: ["-c:a", "pcm_f32le"]
            case .aiff: ["-c:a", pcm.bits == 24 ? "pcm_s24be" : "pcm_s16be"]
            case .wavPack: []
            }
        try run(["ffmpeg", "-v", "error", "-y", "-i", wav.string] + codec + arguments + [output.string])
        return output
    }

    /// `pcm` as a plain WAV (sox, from raw little-endian samples), whatever `wav`'s name.
    public static func writeWAV(_ pcm: GeneratedPCM, to wav: FilePath, in directory: TemporaryDirectory) throws {
        let raw = directory.appending("\(wav.lastComponent?.string ?? "pcm").raw")
        let width = pcm.bits / 8
        var bytes = [UInt8](repeating: 0, count: pcm.samples.count * width)
        for (index, sample) in pcm.samples.enumerated() {
            for byte in 0..<width { bytes[index * width + byte] = UInt8(truncatingIfNeeded: sample >> (8 * byte)) }
        }
        try directory.write(bytes, to: raw)
        defer { try? FileManager.default.removeItem(atPath: raw.string) }
        try run(
            "sox", "-R", "-t", "raw", "-r", "\(pcm.sampleRate)", "-c", "\(pcm.channels)", "-b", "\(pcm.bits)", "-e",
            "signed-integer", "-L", raw.string, "-t", "wav", wav.string)
    }

    /// Adds iTunes's gapless tag (`----:com.apple.iTunes:iTunSMPB`: encoder delay,
    /// padding and the original length, in hex) to the `ilst` of an MP4 file whose
    /// `moov` box comes last (ffmpeg's layout, with some `-metadata` so an `ilst` is
    /// there): the boxes around grow, nothing after them moves.
    public static func addITunSMPB(to path: FilePath, delay: Int, padding: Int, frames: Int) throws {
        func hex(_ value: Int, _ digits: Int) -> String {
            let text = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        let value = " 00000000 \(hex(delay, 8)) \(hex(padding, 8)) \(hex(frames, 16)) 00000000 00000000 00000000"
        try addITunesAtom(to: path, name: "iTunSMPB", value: value)
    }

    /// Adds a freeform `----:com.apple.iTunes:<name>` atom of UTF-8 `value` (iTunSMPB,
    /// replaygain_track_gain, …) to an MP4 file as `addITunSMPB` does.
    public static func addITunesAtom(to path: FilePath, name: String, value: String) throws {
        var bytes = try TemporaryDirectory.read(path)
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + payload.count)
            return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
                + Array(type.utf8) + payload
        }
        let atom = box(
            "----",
            box("mean", [0, 0, 0, 0] + Array("com.apple.iTunes".utf8)) + box("name", [0, 0, 0, 0] + Array(name.utf8))
                + box("data", [0, 0, 0, 1, 0, 0, 0, 0] + Array(value.utf8)))
        var parents: [Int] = []
        var range = 0..<bytes.count
        for (type, header) in [("moov", 8), ("udta", 8), ("meta", 12), ("ilst", 8)] {
            var offset = range.lowerBound
            var found: Range<Int>?
            while offset + 8 <= range.upperBound {
                let size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
                guard size >= 8 else { break }
                if String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self) == type {
                    found = (offset + header)..<(offset + size)
                    parents.append(offset)
                    break
                }
                offset += size
            }
            guard let found else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no \(type) in \(path)"])
            }
            range = found
        }
        guard parents[0] + (bytes[parents[0]..<(parents[0] + 4)].reduce(0) { $0 << 8 | Int($1) }) == bytes.count else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "moov is not last in \(path)"])
        }
        bytes.insert(contentsOf: atom, at: range.upperBound)
        for parent in parents {
            let size = bytes[parent..<(parent + 4)].reduce(0) { $0 << 8 | Int($1) } + atom.count
            bytes.replaceSubrange(
                parent..<(parent + 4), with: [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path.string))
    }
}
