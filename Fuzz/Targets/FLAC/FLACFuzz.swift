import QPlayAudio
import QPlayFuzzDecoderSupport
import QPlayFuzzSupport
import SystemPackage

/// The libFLAC wrapper (`FLACDecoder`) on damaged FLAC files, opened the way playback
/// opens them (through `DecoderRegistry.standard`, which picks by content) and used as
/// playback uses them: decode to the end, seek (within, to the end, back to the start)
/// and decode a little after each. It must play or throw a `DecoderError`, never crash,
/// and hand out whole frames within the buffer, at positions within the stream.
///
/// Input: a byte choosing the read buffer's size, two bytes choosing where to seek, the file.
@main
enum FLACFuzz {
    static func main() { FuzzDriver.run(check) }

    static let file = ScratchFile(suffix: "flac")
    /// Read sizes in frames: smaller than, about and larger than a FLAC block (4,096).
    static let bufferFrames = [1, 100, 1152, 4096, 10_000]

    static func check(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let frames = bufferFrames[input.choose(bufferFrames.count)]
        let seekFraction = Double(input.choose(65536)) / 65535
        file.write(Array(input.rest()))
        // What the registry does not take for FLAC goes to libmpg123, fuzzed on its own
        // (and its resync through junk would take most of the time here).
        let path = FilePath(file.path)
        guard (try? DecoderRegistry.standard.formatName(of: path)) == "flac",
            let decoder = try? DecoderRegistry.standard.open(path)
        else { return }
        fuzzCheck(decoder is FLACDecoder, "a file recognised as FLAC opened as \(type(of: decoder))")
        let format = decoder.format
        fuzzCheck(format.channels > 0 && format.sampleRate > 0, "format \(format)")
        fuzzCheck(format.bits >= 4 && format.bits <= 32, "format \(format)")
        let decoded = DecoderReads.decode(decoder, frames: frames)
        let length = decoder.frameCount ?? decoded
        let target = Int(Double(length) * seekFraction)
        if (try? decoder.seek(toFrame: target)) != nil {
            fuzzCheck(decoder.framePosition == target, "seek to \(target) landed at \(decoder.framePosition)")
        }
        _ = DecoderReads.decode(decoder, frames: frames, buffers: 2)
        if let frameCount = decoder.frameCount, (try? decoder.seek(toFrame: frameCount)) != nil {
            fuzzCheck(DecoderReads.decode(decoder, frames: frames, buffers: 1) == 0, "audio after a seek to the end")
        }
        if (try? decoder.seek(toFrame: 0)) != nil {
            fuzzCheck(decoder.framePosition == 0, "seek to 0 landed at \(decoder.framePosition)")
        }
        _ = DecoderReads.decode(decoder, frames: frames, buffers: 1)
    }
}
