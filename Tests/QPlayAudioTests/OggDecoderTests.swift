import Foundation
import QPlayAudio
import QPlayTestSupport
import SystemPackage
import Testing

typealias OggCodec = GeneratedAudio.OggCodec

/// An encoded test file and what its source was.
struct OggFile {
    var path: FilePath
    var sourceFrames: Int
    var rate: Int
    var channels: Int
}

extension OggCodec {
    /// The rate a test encodes at: Opus decodes at 48 kHz (and keeps the length only
    /// from a 48 kHz source); Vorbis keeps the source's rate, CD audio here.
    var testRate: Int { self == .opus ? 48000 : 44100 }

    /// A file of `frames` frames of a tone (or a sweep up to `toHz`, or noise), encoded.
    func file(
        in dir: TemporaryDirectory, name: String, frames: Int, hz: Int = 440, toHz: Int? = nil, noise: Bool = false,
        channels: Int = 2
    ) throws -> OggFile {
        let wav = try GeneratedAudio.wav(
            in: dir, name: "\(name).wav", frames: frames, hz: hz, toHz: toHz, noise: noise, rate: testRate,
            channels: channels)
        let path = try GeneratedAudio.encode(wav, as: self, to: name, in: dir, opusBitrate: 48 * channels)
        return OggFile(
            path: path, sourceFrames: try GeneratedAudio.frameCount(ofWAV: wav), rate: testRate, channels: channels)
    }

    /// How far a sample after a seek may be from the same sample of a continuous
    /// decode: Vorbis decodes the very same samples; Opus's decoder state after its
    /// pre-roll is close to, not equal to, a continuous decode's (1 LSB seen).
    var seekTolerance: Int { self == .vorbis ? 0 : 1 }
}

/// libvorbisfile and libopusfile on files made with oggenc and opusenc: exact lengths,
/// the right tone, sample-exact seeks, chosen by content.
@Suite struct OggDecoderTests {
    @Test(arguments: OggCodec.allCases, [1, 2])
    func decodesTheSourceLengthExactlyWithItsTone(codec: OggCodec, channels: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // Not a multiple of any block or packet size: the end is trimmed, not rounded.
        let file = try codec.file(in: dir, name: "tone.\(codec.fileExtension)", frames: 110_333, hz: 523, channels: channels)
        #expect(file.sourceFrames == 110_333)
        let decoder = try DecoderRegistry.standard.open(file.path)
        #expect(codec == .vorbis ? decoder is VorbisDecoder : decoder is OpusDecoder)
        #expect(decoder.format == AudioFormat(sampleRate: file.rate, channels: channels, bits: 16))
        #expect(decoder.frameCount == file.sourceFrames, "the stream's own length is the source's")
        #expect(decoder.framePosition == 0)
        let samples = try decodeAll(decoder)
        #expect(samples.count == file.sourceFrames * channels, "decoded exactly the source's length")
        #expect(decoder.framePosition == file.sourceFrames)
        for channel in 0..<channels {
            let hz = ToneAnalysis.frequency(of: samples, channels: channels, channel: channel, sampleRate: file.rate)
            #expect(abs(hz - 523) < 523 * 0.005, "channel \(channel): \(hz) Hz")
        }
        #expect(try DecoderRegistry.standard.formatName(of: file.path) == codec.rawValue)
    }

    @Test(arguments: OggCodec.allCases)
    func seekLandsSampleExact(codec: OggCodec) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let file = try codec.file(
            in: dir, name: "sweep.\(codec.fileExtension)", frames: 5 * codec.testRate + 777, hz: 200, toHz: 3000)
        let reference = try decodeAll(try DecoderRegistry.standard.open(file.path))
        #expect(reference.count == file.sourceFrames * 2)
        for target in [123_457, 0, codec.testRate, 3 * codec.testRate + 1, file.sourceFrames - 5, 200_000] {
            let decoder = try DecoderRegistry.standard.open(file.path)
            try decoder.seek(toFrame: target)
            #expect(decoder.framePosition == target)
            let rest = try decodeAll(decoder)
            #expect(rest.count == reference.count - target * 2, "frame \(target): exactly the rest")
            let worst = PCMCompare.maxDifference(rest, at: 0, reference, at: target, frames: rest.count / 2, channels: 2)
            #expect(worst <= codec.seekTolerance, "frame \(target): max difference \(worst)")
        }
        // Past the end: clamped to it, nothing left to play.
        let decoder = try DecoderRegistry.standard.open(file.path)
        try decoder.seek(toFrame: 10 * file.sourceFrames)
        #expect(try decodeAll(decoder).isEmpty)
    }

    @Test func theContentNotTheNameChoosesTheDecoder() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let vorbis = try OggCodec.vorbis.file(in: dir, name: "vorbis.mp3", frames: 44_100, hz: 659)
        let opus = try OggCodec.opus.file(in: dir, name: "opus.ogg", frames: 48_000, hz: 659)
        for (file, codec) in [(vorbis, OggCodec.vorbis), (opus, .opus)] {
            #expect(try DecoderRegistry.standard.formatName(of: file.path) == codec.rawValue)
            let decoder = try DecoderRegistry.standard.open(file.path)
            #expect(codec == .vorbis ? decoder is VorbisDecoder : decoder is OpusDecoder, "\(file.path)")
            let samples = try decodeAll(decoder)
            #expect(samples.count == file.sourceFrames * 2, "\(file.path)")
            let hz = ToneAnalysis.frequency(of: samples, channels: 2, sampleRate: file.rate)
            #expect(abs(hz - 659) < 659 * 0.005, "\(file.path): \(hz) Hz")
        }
        #expect(DecoderRegistry.standard.fileExtensions.isSuperset(of: ["ogg", "oga", "opus"]))
    }

    @Test(arguments: OggCodec.allCases)
    func surroundPlaysAsItIsAndMoreThanEightChannelsAreRefused(codec: OggCodec) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let surround = try codec.file(in: dir, name: "5.1.\(codec.fileExtension)", frames: 20_000, channels: 6)
        let decoder = try DecoderRegistry.standard.open(surround.path)
        #expect(decoder.format.channels == 6, "not mixed down")
        #expect(try decodeAll(decoder).count == 20_000 * 6)
        // Opus has layouts for up to 8 channels; more is mapping family 255, which
        // libopusfile does not decode.
        let wide = try codec.file(in: dir, name: "10.\(codec.fileExtension)", frames: 10_000, channels: 10)
        let reason = codec == .vorbis ? "10 channels (qplay plays up to 8)" : "an Opus feature libopusfile does not implement"
        #expect(throws: DecoderError(path: wide.path, reason: reason)) { try DecoderRegistry.standard.open(wide.path) }
    }

    /// Each channel of a 5.1 WAV (WAVE order: FL FR FC LFE BL BR) holds its own tone;
    /// the encoders store them in Vorbis order (FL FC FR BL BR LFE) and the decoder must
    /// hand them back in WAVE order, as ALSA and the mix-down take them.
    @Test(arguments: OggCodec.allCases)
    func surroundComesOutInWAVEOrder(codec: OggCodec) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let tones = [300, 500, 700, 90, 1100, 1300]  // LFE low, as an encoder expects it
        let wav = dir.appending("5.1.wav")
        try GeneratedAudio.run(
            ["sox", "-R", "-r", "\(codec.testRate)", "-c", "6", "-n", "-b", "16", wav.string, "synth", "30000s"]
                + tones.flatMap { ["sine", "\($0)"] } + ["vol", "0.5"])
        let file = try GeneratedAudio.encode(wav, as: codec, to: "5.1.\(codec.fileExtension)", in: dir, opusBitrate: 288)
        let decoder = try DecoderRegistry.standard.open(file)
        try #require(decoder.format.channels == 6)
        let samples = try decodeAll(decoder)
        for (channel, hz) in tones.enumerated() {
            let found = ToneAnalysis.frequency(of: samples, channels: 6, channel: channel, sampleRate: codec.testRate)
            #expect(abs(found - Double(hz)) < Double(hz) * 0.02, "channel \(channel): \(found) Hz, \(hz) Hz expected")
        }
    }

    @Test(arguments: OggCodec.allCases)
    func largeID3v2TagInFrontStillPlaysWhole(codec: OggCodec) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let file = try codec.file(in: dir, name: "plain.\(codec.fileExtension)", frames: 30_000)
        // Far past the 64 KB in which the libraries look for the first page.
        let tagged = dir.appending("tagged.\(codec.fileExtension)")
        try dir.write(MP3Bytes.id3v2Tag(paddedTo: 1 << 20) + (try TemporaryDirectory.read(file.path)), to: tagged)
        #expect(try DecoderRegistry.standard.formatName(of: tagged) == codec.rawValue)
        let plain = try decodeAll(try DecoderRegistry.standard.open(file.path))
        let decoder = try DecoderRegistry.standard.open(tagged)
        #expect(decoder.frameCount == 30_000)
        #expect(try decodeAll(decoder) == plain)
        try decoder.seek(toFrame: 12_345)
        #expect(try decodeAll(decoder).count == (30_000 - 12_345) * 2)
    }

    @Test func aChainOfTheSameFormatPlaysOnAndAnotherFormatEndsIt() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // Noise: links of a sine are a page or two, and libvorbisfile skips such a first
        // link of a chain (oggdec too).
        let first = try OggCodec.vorbis.file(in: dir, name: "first.ogg", frames: 60_000, noise: true, channels: 2)
        let second = try OggCodec.vorbis.file(in: dir, name: "second.ogg", frames: 40_000, noise: true, channels: 2)
        let mono = try OggCodec.vorbis.file(in: dir, name: "mono.ogg", frames: 25_000, noise: true, channels: 1)
        // A chained Ogg file is its links' bytes one after the other.
        let chained = dir.appending("chained.ogg")
        try dir.write(
            try TemporaryDirectory.read(first.path) + TemporaryDirectory.read(second.path)
                + TemporaryDirectory.read(mono.path), to: chained)
        let result = try attempt(chained) { path throws(DecoderError) in try VorbisDecoder(path: path) }
        #expect(result.openError == nil)
        #expect(result.frameCount == 100_000, "the links that play")
        #expect(result.frames == 100_000, "both stereo links, whole")
        let reason = try #require(result.readError)
        #expect(reason == "decoder error at 0:02: format changes within the file (to 44100 Hz, 1 ch)")
    }
}

/// Damaged Ogg files: refused with a reason or played as far as they go, never a crash
/// or a hang (each attempt runs on its own thread with a limit; see `attempt`).
@Suite struct OggDamageTests {
    static func open(_ path: FilePath) throws(DecoderError) -> any AudioDecoder {
        try DecoderRegistry.standard.open(path)
    }

    /// 4 s of noise: a tone would make a file of a few pages, mostly headers.
    static func noise(_ codec: OggCodec, in dir: TemporaryDirectory) throws -> OggFile {
        try codec.file(in: dir, name: "whole.\(codec.fileExtension)", frames: 4 * codec.testRate, noise: true)
    }

    @Test(arguments: OggCodec.allCases)
    func truncatedFilePlaysWhatIsThere(codec: OggCodec) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let file = try Self.noise(codec, in: dir)
        let bytes = try TemporaryDirectory.read(file.path)
        let truncated = dir.appending("truncated.\(codec.fileExtension)")
        try dir.write(Array(bytes.prefix(bytes.count / 2)), to: truncated)
        let result = try attempt(truncated, open: Self.open)
        #expect(result.openError == nil)
        #expect(result.readError == nil)
        // opusenc writes pages of up to a second: the cut loses what the last one held.
        #expect(result.frames > file.sourceFrames / 5 && result.frames < file.sourceFrames, "\(result.frames) frames")
        #expect(result.frameCount == result.frames, "the length is what the file still holds")
    }

    @Test(arguments: OggCodec.allCases)
    func flippedBytesMidFileAreSkipped(codec: OggCodec) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let file = try Self.noise(codec, in: dir)
        var bytes = try TemporaryDirectory.read(file.path)
        // Damaged pages (their CRC no longer holds) in the middle: a hole, skipped.
        for offset in stride(from: bytes.count / 3, to: 2 * bytes.count / 3, by: 997) { bytes[offset] ^= 0x5A }
        let damaged = dir.appending("damaged.\(codec.fileExtension)")
        try dir.write(bytes, to: damaged)
        let result = try attempt(damaged, open: Self.open)
        #expect(result.openError == nil)
        #expect(result.readError == nil, "holes are skipped, not fatal")
        #expect(result.frames > file.sourceFrames / 4 && result.frames < file.sourceFrames, "\(result.frames) frames")
    }

    @Test(arguments: OggCodec.allCases)
    func randomBytesAfterTheFirstPageAreRefused(codec: OggCodec) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let file = try codec.file(in: dir, name: "whole.\(codec.fileExtension)", frames: codec.testRate)
        let bytes = try TemporaryDirectory.read(file.path)
        // The first page (the identification header) is kept, so the content is
        // recognised and the format's decoder gets the file.
        let firstPage = 27 + Int(bytes[26]) + bytes[27..<(27 + Int(bytes[26]))].reduce(0) { $0 + Int($1) }
        let damaged = dir.appending("random.\(codec.fileExtension)")
        try dir.write(Array(bytes[..<firstPage]) + pseudoRandomBytes(count: 300_000, seed: 5), to: damaged)
        #expect(try DecoderRegistry.standard.formatName(of: damaged) == codec.rawValue)
        let result = try attempt(damaged, open: Self.open)
        let reason = try #require(result.openError ?? result.readError, "\(result.frames) frames")
        #expect(!reason.isEmpty)
        #expect(result.frames == 0)
    }

    @Test(arguments: OggCodec.allCases)
    func junkMidFilePlaysOnUnlessItIsBeyondTheBudget(codec: OggCodec) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let file = try Self.noise(codec, in: dir)
        let bytes = try TemporaryDirectory.read(file.path)
        // Cut at a page boundary near the middle: the junk sits between two pages.
        let middle = try #require(pageStart(in: bytes, from: bytes.count / 2))
        let short = dir.appending("short-junk.\(codec.fileExtension)")
        try dir.write(Array(bytes[..<middle]) + [UInt8](repeating: 0, count: 10_000) + bytes[middle...], to: short)
        let shortResult = try attempt(short, open: Self.open)
        #expect(shortResult.openError == nil)
        #expect(shortResult.readError == nil)
        #expect(shortResult.frames == file.sourceFrames, "junk between pages loses nothing")

        let long = dir.appending("long-junk.\(codec.fileExtension)")
        try dir.write(Array(bytes[..<middle]) + [UInt8](repeating: 0, count: 2 << 20) + bytes[middle...], to: long)
        let longResult = try attempt(long, open: Self.open)
        #expect(longResult.openError == nil)
        let reason = try #require(longResult.readError)
        #expect(reason.hasPrefix("decoder error at 0:0") && reason.hasSuffix("no audio in 256 KB"), "\(reason)")
        #expect(longResult.frames > file.sourceFrames / 4 && longResult.frames < file.sourceFrames)
    }

    /// The offset of the first Ogg page at or after `offset`.
    private func pageStart(in bytes: [UInt8], from offset: Int) -> Int? {
        (offset..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("OggS".utf8) }
    }
}
