import CLame

/// LAME at a constant bit rate, without the Xing frame (a live stream has no length).
final class MP3StreamEncoder: StreamEncoder, @unchecked Sendable {
    private let lame: OpaquePointer
    private let channels: Int
    private var output: [UInt8] = []
    let header: [UInt8] = []

    init(rate: Int, channels: Int, kilobitsPerSecond: Int) throws(StreamEncoderError) {
        guard channels == 1 || channels == 2 else {
            throw StreamEncoderError(description: "MP3 takes 1 or 2 channels, not \(channels)")
        }
        guard let lame = lame_init() else { throw StreamEncoderError(description: "lame_init failed") }
        lame_set_in_samplerate(lame, Int32(rate))
        lame_set_num_channels(lame, Int32(channels))
        lame_set_mode(lame, channels == 1 ? MONO : JOINT_STEREO)
        lame_set_brate(lame, Int32(kilobitsPerSecond))
        lame_set_bWriteVbrTag(lame, 0)
        // LAME's quality 5: its speed for live encoding, as MPD's lame encoder default.
        lame_set_quality(lame, 5)
        guard lame_init_params(lame) >= 0 else {
            lame_close(lame)
            throw StreamEncoderError(description: "LAME refused \(rate) Hz, \(channels) channels")
        }
        self.lame = lame
        self.channels = channels
    }

    deinit {
        lame_close(lame)
    }

    func encode(_ samples: UnsafeBufferPointer<Int16>, frames: Int) -> [UInt8] {
        // LAME's own bound for its output: 1.25 × the samples + 7,200 bytes.
        let capacity = frames * 5 / 4 + 7200
        if output.count < capacity { output = [UInt8](repeating: 0, count: capacity) }
        let written = output.withUnsafeMutableBufferPointer { out -> Int32 in
            let base = UnsafeMutablePointer(mutating: samples.baseAddress!)
            return channels == 1
                ? lame_encode_buffer(lame, base, nil, Int32(frames), out.baseAddress, Int32(capacity))
                : lame_encode_buffer_interleaved(lame, base, Int32(frames), out.baseAddress, Int32(capacity))
        }
        return written > 0 ? Array(output[..<Int(written)]) : []
    }
}
