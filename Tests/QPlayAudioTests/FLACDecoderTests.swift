import Foundation
import QPlayAudio
import QPlayTestSupport
import SystemPackage
import Testing

/// Everything a decoder hands out, as the pipeline carries it (left-justified 32 bits),
/// read `bufferFrames` at a time.
func decodeAllWide(_ decoder: any AudioDecoder, bufferFrames: Int = 1000) throws -> [Int32] {
    var all: [Int32] = []
    // One sample more than whole frames hold, which the decoder must leave.
    var buffer = [Int32](repeating: 0, count: bufferFrames * decoder.format.channels + 1)
    while true {
        let count = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
        if count == 0 { return all }
        #expect(count % decoder.format.channels == 0, "whole frames only")
        all += buffer[..<count]
    }
}

/// libFLAC on files made with sox and the `flac` tool: lossless, so every comparison
/// with the PCM the file was encoded from is exact.
@Suite struct FLACDecoderTests {
    @Test(arguments: [(16, 2), (24, 2), (16, 1), (24, 6), (8, 1), (32, 2)])
    func decodesExactlyTheEncodedSamples(bits: Int, channels: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: 1.3, bits: bits, channels: channels)
        let flac = try GeneratedAudio.flac(pcm, in: dir, name: "tone.flac")
        let decoder = try FLACDecoder(path: flac)
        #expect(decoder.format == AudioFormat(sampleRate: 44100, channels: channels, bits: bits))
        #expect(decoder.frameCount == (try GeneratedAudio.flacTotalSamples(flac)))
        #expect(decoder.frameCount == pcm.frames)
        let decoded = try decodeAllWide(decoder)
        #expect(decoded.count == pcm.samples.count, "to the sample")
        #expect(decoded == pcm.leftJustified, "bit-exact")
        #expect(decoder.framePosition == pcm.frames)
    }

    @Test func largeFramesOfEightChannelsAreNoJunk() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // Noise does not compress: 16,384-frame blocks of 8 × 24 bits are stored as they
        // are, 393 KB a frame — more than the junk budget of 256 KB before any audio.
        let pcm = try GeneratedAudio.pcm(
            in: dir, seconds: 0.5, synth: ["whitenoise"], bits: 24, rate: 96000, channels: 8)
        let flac = try GeneratedAudio.flac(pcm, in: dir, name: "noise.flac", blockSize: 16384)
        let decoder = try FLACDecoder(path: flac)
        #expect(try decodeAllWide(decoder, bufferFrames: 4096) == pcm.leftJustified)
    }

    @Test func seeksSampleExact() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: 3, bits: 24)
        let flac = try GeneratedAudio.flac(pcm, in: dir, name: "sweep.flac")
        let reference = pcm.leftJustified
        let decoder = try FLACDecoder(path: flac)
        // Block edges (4,096 frames), inside blocks, the last frame, the end, and back.
        for target in [100_003, 4096, 4095, 0, 1, 44_100, pcm.frames - 1, pcm.frames, 65_536, 0] {
            try decoder.seek(toFrame: target)
            #expect(decoder.framePosition == target)
            let rest = try decodeAllWide(decoder, bufferFrames: 777)
            #expect(rest.count == (pcm.frames - target) * 2, "from \(target) to the end")
            #expect(rest[...] == reference[(target * 2)...], "frame \(target): the same samples as a full decode")
        }
        // Past the end clamps to the end.
        try decoder.seek(toFrame: pcm.frames + 10_000)
        #expect(try decodeAllWide(decoder).isEmpty)
    }

    @Test func unknownLengthPlaysAndSeeksWithin() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: 1.5, bits: 16)
        var bytes = try TemporaryDirectory.read(try GeneratedAudio.flac(pcm, in: dir, name: "known.flac"))
        // STREAMINFO's total samples (36 bits from its 13th byte's low half) set to 0, as
        // an encoder writing to a pipe leaves it.
        bytes[8 + 13] &= 0xF0
        for index in (8 + 14)..<(8 + 18) { bytes[index] = 0 }
        let unknown = dir.appending("unknown.flac")
        try dir.write(bytes, to: unknown)
        let decoder = try FLACDecoder(path: unknown)
        #expect(decoder.frameCount == nil)
        #expect(try decodeAllWide(decoder) == pcm.leftJustified)
        try decoder.seek(toFrame: 44_100)
        #expect(try decodeAllWide(decoder)[...] == pcm.leftJustified[(44_100 * 2)...])
        // Past the end there is no frame to land on: an error, and the decoder still seeks.
        #expect(throws: DecoderError.self) { try decoder.seek(toFrame: pcm.frames + 44_100) }
        try decoder.seek(toFrame: 0)
        #expect(try decodeAllWide(decoder) == pcm.leftJustified)
    }

    @Test func seekAfterReadingPartOfABlock() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: 1, bits: 16)
        let flac = try GeneratedAudio.flac(pcm, in: dir, name: "sweep.flac")
        let decoder = try FLACDecoder(path: flac)
        // 100 frames read: the rest of the first block is carried; the seek drops it.
        var buffer = [Int32](repeating: 0, count: 200)
        #expect(try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) } == 200)
        #expect(decoder.framePosition == 100)
        try decoder.seek(toFrame: 30_000)
        let rest = try decodeAllWide(decoder)
        #expect(rest[...] == pcm.leftJustified[(30_000 * 2)...])
    }

    @Test func chosenByContentNotByName() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: 0.5, bits: 16)
        let flac = try GeneratedAudio.flac(pcm, in: dir, name: "tone.flac")
        let disguised = dir.appending("tone.mp3")
        try dir.copy(flac, to: disguised)
        #expect(try DecoderRegistry.standard.formatName(of: disguised) == "flac")
        let decoder = try DecoderRegistry.standard.open(disguised)
        #expect(decoder is FLACDecoder)
        #expect(try decodeAllWide(decoder) == pcm.leftJustified)

        let text = dir.appending("text.flac")
        try dir.write(Array(String(repeating: "not audio at all\n", count: 500).utf8), to: text)
        #expect(try DecoderRegistry.standard.formatName(of: text) == nil)
        let error = #expect(throws: DecoderError.self) { try DecoderRegistry.standard.open(text) }
        #expect(error?.reason.hasPrefix("not a file qplay plays (MP3, FLAC, Ogg Vorbis, Opus, AAC, ALAC, WAV, AIFF, WavPack)") == true, "\(String(describing: error))")
        #expect(DecoderRegistry.standard.fileExtensions.isSuperset(of: ["mp3", "flac"]))
    }

    @Test func metadataOfMegabytesIsNoJunk() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: 0.5, bits: 16)
        // A 2 MB padding block (as large cover art would be), behind a 1 MB ID3v2 tag:
        // both far over the junk budget, both read before the first frame.
        let padded = try GeneratedAudio.flac(pcm, in: dir, name: "padded.flac", extraArguments: ["--padding=2000000"])
        let tagged = dir.appending("tagged.flac")
        try dir.write(MP3Bytes.id3v2Tag(paddedTo: 1 << 20) + (try TemporaryDirectory.read(padded)), to: tagged)
        #expect(try DecoderRegistry.standard.formatName(of: tagged) == "flac")
        let result = try attempt(tagged) { path throws(DecoderError) in try DecoderRegistry.standard.open(path) }
        #expect(result.openError == nil)
        #expect(result.readError == nil)
        #expect(result.frameCount == pcm.frames)
        #expect(result.frames == pcm.frames)
    }
}
