import QPlayAudio
import QPlayFuzzDecoderSupport
import QPlayFuzzSupport
import SystemPackage

/// The libvorbisfile and libopusfile wrappers (`VorbisDecoder`, `OpusDecoder`) on
/// damaged Ogg files, used the way playback uses them: open, decode to the end, seek
/// (within, past the end, back to the start) and decode a little after each. Each must
/// play or throw a `DecoderError`, never crash, and hand out whole frames within the
/// buffer, no more of them than its length says.
///
/// Input: a byte choosing the decoder (even: Vorbis, odd: Opus — the file goes to it
/// whatever its first bytes say, so a mutated header still reaches the library), two
/// bytes choosing where to seek, the file.
@main
enum OggFuzz {
    static func main() { FuzzDriver.run(check) }

    static let file = ScratchFile(suffix: "ogg")

    static func check(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let opus = input.byte() & 1 == 1
        let seekFraction = Double(input.choose(65536)) / 65535
        file.write(Array(input.rest()))
        let path = FilePath(file.path)
        let opened: (any AudioDecoder)? = opus ? try? OpusDecoder(path: path) : try? VorbisDecoder(path: path)
        guard let decoder = opened else { return }
        let format = decoder.format
        fuzzCheck(format.channels > 0 && format.channels <= 8 && format.sampleRate > 0, "format \(format)")
        if opus { fuzzCheck(format.sampleRate == 48000, "Opus at \(format.sampleRate) Hz") }
        fuzzCheck((decoder.frameCount ?? 0) >= 0, "length \(decoder.frameCount ?? 0)")
        let decoded = DecoderReads.decode(decoder)
        if let length = decoder.frameCount {
            // Frames past the stated length would be audio the length (and the
            // position a client sees) does not account for.
            fuzzCheck(decoded <= length || decoded >= DecoderReads.frameLimit, "\(decoded) frames decoded, length \(length)")
        }
        try? decoder.seek(toFrame: Int(Double(decoder.frameCount ?? decoded) * seekFraction))
        _ = DecoderReads.decode(decoder, buffers: 2)
        try? decoder.seek(toFrame: Int.max / 4)
        _ = DecoderReads.decode(decoder, buffers: 1)
        try? decoder.seek(toFrame: 0)
        _ = DecoderReads.decode(decoder, buffers: 1)
    }
}
