import QPlayAudio
import QPlayFuzzDecoderSupport
import QPlayFuzzSupport
import SystemPackage

/// The FFmpeg decoder (`FFmpegDecoder`: libavformat over the budgeted reader, libavcodec)
/// on damaged AAC, ALAC, WAV, AIFF and WavPack files, opened the way playback opens them
/// (through `DecoderRegistry.standard`, which picks by content) and used as playback
/// uses them: decode to the end, seek (within, to the end, back to the start) and decode
/// a little after each. It must play or throw a `DecoderError`, never crash, and hand
/// out whole frames within the buffer, at positions within the stream.
///
/// Input: a byte choosing the read buffer's size, two bytes choosing where to seek, the file.
@main
enum FFmpegFuzz {
    static func main() { FuzzDriver.run(check) }

    static let file = ScratchFile(suffix: "m4a")
    /// Read sizes in frames: smaller than, about and larger than an AAC frame (1,024)
    /// and an ALAC packet (4,096).
    static let bufferFrames = [1, 100, 1024, 4096, 10_000]
    static let formats: Set<String> = ["aac", "alac", "wav", "aiff", "wavpack"]

    static func check(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let frames = bufferFrames[input.choose(bufferFrames.count)]
        let seekFraction = Double(input.choose(65536)) / 65535
        file.write(Array(input.rest()))
        // What the registry takes for another format goes to that format's decoder,
        // fuzzed on its own.
        let path = FilePath(file.path)
        guard let name = try? DecoderRegistry.standard.formatName(of: path), formats.contains(name),
            let decoder = try? DecoderRegistry.standard.open(path)
        else { return }
        fuzzCheck(decoder is FFmpegDecoder, "a file recognised as \(name) opened as \(type(of: decoder))")
        let format = decoder.format
        fuzzCheck(format.channels > 0 && format.channels <= 8 && format.sampleRate > 0, "format \(format)")
        fuzzCheck(format.bits >= 8 && format.bits <= 32, "format \(format)")
        let decoded = DecoderReads.decode(decoder, frames: frames)
        let length = decoder.frameCount ?? decoded
        let target = Int(Double(length) * seekFraction)
        if (try? decoder.seek(toFrame: target)) != nil {
            // At the target, or later where the demuxer had no packet before it.
            fuzzCheck(decoder.framePosition >= target, "seek to \(target) landed at \(decoder.framePosition)")
        }
        _ = DecoderReads.decode(decoder, frames: frames, buffers: 2)
        if let frameCount = decoder.frameCount, (try? decoder.seek(toFrame: frameCount)) != nil {
            fuzzCheck(DecoderReads.decode(decoder, frames: frames, buffers: 1) == 0, "audio after a seek to the end")
        }
        if (try? decoder.seek(toFrame: 0)) != nil {
            fuzzCheck(decoder.framePosition >= 0, "seek to 0 landed at \(decoder.framePosition)")
        }
        _ = DecoderReads.decode(decoder, frames: frames, buffers: 1)
    }
}
