import QPlayAudio
import QPlayFuzzSupport
import SystemPackage

/// The libmpg123 wrapper (`MPG123Decoder`) on damaged MP3s, used the way playback uses
/// it: open through `DecoderRegistry` (as is, or converted by `ResamplingDecoder` for a
/// fixed-format output), decode to the end, seek (within, past the end, back to the
/// start) and decode a little after each. It must play
/// or throw a `DecoderError`, never crash, and hand out whole frames within the buffer.
///
/// Input: a byte choosing the conversion, two bytes choosing where to seek, the file.
@main
enum MPG123Fuzz {
    static func main() { FuzzDriver.run(check) }

    static let file = ScratchFile(suffix: "mp3")
    static let conversions: [AudioFormat?] = [nil, .cd, AudioFormat(sampleRate: 22050, channels: 1)]
    /// Enough for any file a fuzz input makes; bounds a decoder that never ends.
    static let frameLimit = 5_000_000

    static func check(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let conversion = conversions[input.choose(conversions.count)]
        let seekFraction = Double(input.choose(65536)) / 65535
        file.write(Array(input.rest()))
        guard let decoder = try? DecoderRegistry.standard.open(FilePath(file.path), converting: conversion) else { return }
        if let conversion { fuzzCheck(decoder.format.joins(conversion), "asked for \(conversion), got \(decoder.format)") }
        fuzzCheck(decoder.format.channels > 0 && decoder.format.sampleRate > 0, "format \(decoder.format)")
        let decoded = decode(decoder)
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
        // Stereo: one sample more than whole frames hold, which the decoder must leave.
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
