/// Copies one decoder's PCM into an output until the decoder ends, on the calling
/// thread. The daemon plays through `AudioPlayer` (commands, prefetch, volume); this
/// plain path is for tests that check a decoder and an output alone.
public enum AudioPump {
    /// Samples per read: about 23 ms of stereo CD audio, near one ALSA period.
    public static let chunkSamples = 4096

    /// Returns the number of frames written.
    @discardableResult
    public static func copy(from decoder: any AudioDecoder, to output: any AudioOutput) throws -> Int {
        let encoding = try output.open(format: decoder.format)
        var buffer = [Int32](repeating: 0, count: chunkSamples - chunkSamples % decoder.format.channels)
        var encoder = SampleEncoder()
        var bytes: [UInt8] = []
        var frames = 0
        while true {
            let count = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
            if count == 0 { break }
            buffer.withUnsafeBufferPointer {
                encoder.encode(
                    UnsafeBufferPointer(rebasing: $0[..<count]), sourceBits: decoder.format.bits, scaled: false,
                    as: encoding, into: &bytes)
            }
            try bytes.withUnsafeBytes {
                try output.write(UnsafeRawBufferPointer(rebasing: $0[..<(count * encoding.bytesPerSample)]))
            }
            frames += count / decoder.format.channels
        }
        return frames
    }
}
