import Foundation
import QPlayAudio
import QPlayModel
import QPlayTestSupport
import SystemPackage
import Testing

typealias FFmpegKind = GeneratedAudio.FFmpegKind

extension FFmpegKind {
    /// The depths a test makes this kind at: float WAV from 24-bit integers (a float
    /// holds them exactly), the lossy ones from 16.
    var testDepths: [Int] {
        switch self {
        case .aac, .adts: [16]
        case .floatWAV: [24]
        default: [16, 24]
        }
    }

    /// The depth the decoder hands out for a source of `bits`: AAC rounded to 16, float
    /// PCM as 24, integer PCM its own.
    func decodedBits(from bits: Int) -> Int {
        switch self {
        case .aac, .adts: 16
        case .floatWAV: 24
        default: bits
        }
    }
}

/// FFmpeg's formats through `DecoderRegistry` on files made with ffmpeg and wavpack:
/// the right tone at its exact length, lossless files bit for bit, sample-exact seeks,
/// the format by content, damaged files refused with a reason.
@Suite struct FFmpegDecoderTests {
    static let rate = 44100
    /// No multiple of an AAC frame (1,024) or any block size: the end is trimmed.
    static let frames = 50_001

    static let cases: [(FFmpegKind, Int)] = FFmpegKind.allCases.flatMap { kind in kind.testDepths.map { (kind, $0) } }

    @Test(arguments: cases)
    func decodesItsToneAtItsExactLength(kind: FFmpegKind, bits: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: Double(Self.frames) / Double(Self.rate), synth: ["sine", "659"], bits: bits)
        #expect(pcm.frames == Self.frames)
        let path = try GeneratedAudio.encode(pcm, as: kind, to: "tone.\(kind.fileExtension)", in: dir)
        #expect(try DecoderRegistry.standard.formatName(of: path) == kind.wireName)
        let decoder = try DecoderRegistry.standard.open(path)
        #expect(decoder is FFmpegDecoder)
        #expect(decoder.format == AudioFormat(sampleRate: Self.rate, channels: 2, bits: kind.decodedBits(from: bits)))
        let decoded = try decodeAllWide(decoder)
        if kind == .adts {
            // ADTS says nothing of the encoder's delay or padding: whole AAC frames.
            #expect(decoder.frameCount == nil)
            #expect(decoded.count / 2 >= Self.frames && decoded.count / 2 <= Self.frames + 2048 + 1024)
        } else {
            #expect(decoder.frameCount == Self.frames, "the stream's own length is the source's")
            #expect(decoded.count == Self.frames * 2, "decoded exactly the source's length")
            #expect(decoder.framePosition == Self.frames)
        }
        if kind.isLossless {
            #expect(decoded == pcm.leftJustified, "the source, bit for bit")
        }
        let sixteen = decoded.map { Int16(truncatingIfNeeded: $0 >> 16) }
        for channel in 0..<2 {
            let hz = ToneAnalysis.frequency(of: sixteen, channels: 2, channel: channel, sampleRate: Self.rate)
            #expect(abs(hz - 659) < 659 * 0.005, "\(kind) channel \(channel): \(hz) Hz")
        }
    }

    /// A seek gives what a continuous decode gives from that frame on: lossless formats
    /// exactly, AAC too (its decoder decodes the frames before the target unheard).
    @Test(arguments: FFmpegKind.allCases.filter { $0 != .adts })
    func seeksLandOnTheVeryFrame(kind: FFmpegKind) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: 3, bits: kind.testDepths.last!)
        let path = try GeneratedAudio.encode(pcm, as: kind, to: "sweep.\(kind.fileExtension)", in: dir)
        let continuous = try decodeAllWide(try DecoderRegistry.standard.open(path))
        let decoder = try DecoderRegistry.standard.open(path)
        for target in [100_000, 12_345, 0, 130_000, 77_777] {
            try decoder.seek(toFrame: target)
            #expect(decoder.framePosition == target)
            var buffer = [Int32](repeating: 0, count: 2 * 2000)
            let got = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
            #expect(got == buffer.count)
            let expected = Array(continuous[(2 * target)..<(2 * target + got)])
            let worst = zip(buffer, expected).map { abs(Int64($0) - Int64($1)) >> 16 }.max() ?? 0
            // AAC after a seek is close to, not equal to, a continuous decode (2 and 8
            // LSB seen: its decoder's state is more than the frames decoded unheard);
            // landing a frame off would be thousands on a sweep.
            #expect(worst <= (kind.isLossless ? 0 : 32), "\(kind) after a seek to \(target): off by up to \(worst) (16-bit LSB)")
        }
        try decoder.seek(toFrame: pcm.frames + 5)
        #expect(decoder.framePosition == pcm.frames)
        var buffer = [Int32](repeating: 0, count: 512)
        #expect(try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) } == 0)
    }

    /// iTunes writes no edit list: its encoder delay, padding and length are in the
    /// iTunSMPB tag. ffmpeg's encoder delay (1,024) stands in for iTunes's (2,112).
    @Test func iTunSMPBGivesTheExactLength() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: Double(Self.frames) / Double(Self.rate), synth: ["sine", "659"])
        let path = try GeneratedAudio.encode(
            pcm, as: .aac, to: "itunes.m4a", in: dir, arguments: ["-use_editlist", "0", "-metadata", "title=Tone"])
        let whole = try decodeAllWide(try DecoderRegistry.standard.open(path))
        #expect(whole.count >= (Self.frames + 1024) * 2, "without the tag: the delay plays")
        try GeneratedAudio.addITunSMPB(
            to: path, delay: 1024, padding: Self.itunesPadding(frames: Self.frames), frames: Self.frames)
        let decoder = try DecoderRegistry.standard.open(path)
        #expect(decoder.frameCount == Self.frames)
        let decoded = try decodeAllWide(decoder)
        #expect(decoded.count == Self.frames * 2)
        #expect(Array(decoded[..<(decoded.count - 2048)]) == Array(whole[2048..<(decoded.count)]), "the delay is skipped")
    }

    /// The padding iTunSMPB states for `frames` after ffmpeg's 1,024 frames of delay.
    static func itunesPadding(frames: Int) -> Int {
        let packets = (frames + 1024 + 1023) / 1024
        return packets * 1024 - 1024 - frames
    }

    /// The content decides, whatever the name says: each format under the others'
    /// names plays as itself.
    @Test func contentBeatsTheExtension() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: 0.5, synth: ["sine", "880"])
        for kind in FFmpegKind.allCases {
            let path = try GeneratedAudio.encode(pcm, as: kind, to: "real.\(kind.fileExtension)", in: dir)
            for name in ["disguised.m4a", "disguised.wav", "disguised.flac", "disguised.mp3", "disguised.wv"] {
                let disguised = dir.appending(name)
                try? FileManager.default.removeItem(atPath: disguised.string)
                try dir.copy(path, to: disguised)
                #expect(try DecoderRegistry.standard.formatName(of: disguised) == kind.wireName, "\(kind) as \(name)")
                let decoder = try DecoderRegistry.standard.open(disguised)
                #expect(decoder is FFmpegDecoder, "\(kind) as \(name)")
            }
        }
    }

    /// A 365-byte file the fuzzer found (a WAV header declaring 67 MHz, an AIFF inside)
    /// had libavformat zero 1.3 GB while opening it. FFmpeg's allocations are bounded at
    /// 64 MiB: it is refused as damaged, and the process grew by far less.
    @Test func aHeaderThatAsksForGigabytesIsRefused() throws {
        let input = SampleCatalog.repositoryRoot.appending("Fuzz/crashes/ffmpeg/huge-allocation-67mhz-wav")
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // The fuzz input's first bytes choose the target's read size and seek; the file
        // is the rest.
        let bytes = try TemporaryDirectory.read(input)
        let file = dir.appending("damaged.wav")
        try dir.write(Array(bytes.dropFirst(3)), to: file)
        // The process's peak resident size, reset just before ("5" into clear_refs).
        let before = Self.statusKilobytes("VmRSS")
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        #expect(throws: DecoderError.self) { try DecoderRegistry.standard.open(file) }
        let grew = Self.statusKilobytes("VmHWM") - before
        #expect(grew < 512 * 1024, "opening it took the process \(grew / 1024) MB higher")
    }

    /// A `/proc/self/status` figure in kB.
    static func statusKilobytes(_ key: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix(key + ":") } ?? ""
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }

    /// Cut short inside its headers, or its audio replaced by junk: refused with a
    /// reason, within the reader's budgets.
    @Test(arguments: FFmpegKind.allCases)
    func damagedFilesAreRefusedWithAReason(kind: FFmpegKind) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: 2, synth: ["sine", "880"])
        let path = try GeneratedAudio.encode(pcm, as: kind, to: "good.\(kind.fileExtension)", in: dir)
        let bytes = try TemporaryDirectory.read(path)
        // MP4 (ffmpeg writes `moov` last): the half with the audio but not the headers.
        let cut = dir.appending("cut.\(kind.fileExtension)")
        try dir.write(Array(bytes.prefix(kind == .aac || kind == .alac ? bytes.count / 2 : 24)), to: cut)
        #expect(throws: DecoderError.self, "\(kind) cut short") { try DecoderRegistry.standard.open(cut) }
        do {
            _ = try DecoderRegistry.standard.open(cut)
        } catch {
            #expect(!error.reason.isEmpty && error.path == cut.string)
        }
        if !kind.isLossless || kind == .alac || kind == .wavPack {
            // A compressed stream's frames replaced by junk after its first bytes.
            var random = SeededRandom(seed: 26)
            var junk = bytes
            let start = kind == .adts ? 7 : (kind == .wavPack ? 32 : 0)
            let audio = kind == .aac || kind == .alac ? Self.mdatRange(bytes) : start..<bytes.count
            for index in audio { junk[index] = UInt8.random(in: 0...255, using: &random) }
            let damaged = dir.appending("junk.\(kind.fileExtension)")
            try dir.write(junk, to: damaged)
            let started = ContinuousClock.now
            do {
                let decoder = try DecoderRegistry.standard.open(damaged)
                _ = try decodeAllWide(decoder)
                Issue.record("\(kind) of junk decoded to its end")
            } catch let error as DecoderError {
                #expect(!error.reason.isEmpty, "\(kind): \(error.reason)")
            }
            #expect(ContinuousClock.now - started < .seconds(30), "gave up within the budgets")
        }
    }

    /// The body of an MP4 file's `mdat` box (its audio).
    static func mdatRange(_ bytes: [UInt8]) -> Range<Int> {
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self) == "mdat" {
                return (offset + 8)..<min(bytes.count, offset + size)
            }
            guard size >= 8 else { break }
            offset += size
        }
        return 0..<0
    }
}
