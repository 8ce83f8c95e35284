import QPlayAudio
import QPlayFuzzSupport

/// Reading a fuzzed file to its end the way the audio thread does, with the checks every
/// decoder target makes on each read: whole frames within the buffer (which has one
/// sample more than whole frames hold, for the decoder to leave), a position never
/// below zero.
public enum DecoderReads {
    /// Enough for any file a fuzz input makes; bounds a decoder that never ends.
    public static let frameLimit = 5_000_000

    /// Frames decoded until the end, an error, `buffers` reads of `bufferFrames` frames,
    /// or `frameLimit`.
    public static func decode(_ decoder: any AudioDecoder, frames bufferFrames: Int = 4096, buffers: Int = .max) -> Int {
        let channels = decoder.format.channels
        var buffer = [Int32](repeating: 0, count: bufferFrames * channels + 1)
        let wholeSamples = buffer.count - buffer.count % channels
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
            fuzzCheck(samples >= 0 && samples <= wholeSamples, "\(samples) samples for a buffer of \(buffer.count)")
            fuzzCheck(samples % channels == 0, "\(samples) samples of \(channels) channels")
            fuzzCheck(decoder.framePosition >= 0, "position \(decoder.framePosition)")
            if samples == 0 { break }
            frames += samples / channels
        }
        return frames
    }
}
