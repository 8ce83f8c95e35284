import QPlayAudio
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
    /// Enough for any file a fuzz input makes; bounds a decoder that never ends.
    static let frameLimit = 5_000_000

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
        let decoded = decode(decoder)
        if let length = decoder.frameCount {
            // Frames past the stated length would be audio the length (and the
            // position a client sees) does not account for.
            fuzzCheck(decoded <= length || decoded >= frameLimit, "\(decoded) frames decoded, length \(length)")
        }
        try? decoder.seek(toFrame: Int(Double(decoder.frameCount ?? decoded) * seekFraction))
        _ = decode(decoder, buffers: 2)
        try? decoder.seek(toFrame: Int.max / 4)
        _ = decode(decoder, buffers: 1)
        try? decoder.seek(toFrame: 0)
        _ = decode(decoder, buffers: 1)
    }

    /// Frames decoded until the end, an error or `buffers` reads.
    static func decode(_ decoder: any AudioDecoder, buffers: Int = .max) -> Int {
        let channels = decoder.format.channels
        // One sample more than whole frames hold, which the decoder must leave.
        var buffer = [Int32](repeating: 0, count: 4096 * channels + 1)
        let wholeFrames = buffer.count - buffer.count % channels
        var frames = 0
        var reads = 0
        while frames < frameLimit && reads < buffers {
            reads += 1
            let samples: Int
            do {
                samples = try buffer.withUnsafeMutableBufferPointer { pointer throws(DecoderError) in
                    try decoder.read(into: pointer)
                }
            } catch {
                break
            }
            fuzzCheck(samples >= 0 && samples <= wholeFrames, "\(samples) samples for a buffer of \(buffer.count)")
            fuzzCheck(samples % channels == 0, "\(samples) samples of \(channels) channels")
            fuzzCheck(decoder.framePosition >= 0, "position \(decoder.framePosition)")
            if samples == 0 { break }
            frames += samples / channels
        }
        return frames
    }
}
