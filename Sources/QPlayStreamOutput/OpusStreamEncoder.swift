import COpusEnc

/// libopusenc's Ogg Opus, its pages pulled as they are ready; libopusenc resamples to
/// Opus's 48 kHz itself.
final class OpusStreamEncoder: StreamEncoder, @unchecked Sendable {
    private let encoder: OpaquePointer
    private let comments: OpaquePointer
    private(set) var header: [UInt8] = []

    init(rate: Int, channels: Int, kilobitsPerSecond: Int) throws(StreamEncoderError) {
        guard let comments = ope_comments_create() else { throw StreamEncoderError(description: "ope_comments_create failed") }
        ope_comments_add(comments, "ENCODER", "qplay")
        var error: Int32 = 0
        guard let encoder = ope_encoder_create_pull(comments, Int32(rate), Int32(channels), channels > 2 ? 1 : 0, &error)
        else {
            ope_comments_destroy(comments)
            throw StreamEncoderError(description: "libopusenc refused \(rate) Hz, \(channels) channels (error \(error))")
        }
        self.encoder = encoder
        self.comments = comments
        _ = qp_ope_set_bitrate(encoder, Int32(kilobitsPerSecond * 1000))
        // A page at least every 100 ms (4,800 samples at 48 kHz): listeners hear soon.
        _ = qp_ope_set_muxing_delay(encoder, 4800)
        _ = ope_encoder_flush_header(encoder)
        header = pages(flushing: true)
    }

    deinit {
        ope_encoder_destroy(encoder)
        ope_comments_destroy(comments)
    }

    func encode(_ samples: UnsafeBufferPointer<Int16>, frames: Int) -> [UInt8] {
        _ = ope_encoder_write(encoder, samples.baseAddress, Int32(frames))
        return pages(flushing: false)
    }

    /// The pages ready now, whole: a listener may start at any of them.
    private func pages(flushing: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        var page: UnsafeMutablePointer<UInt8>?
        var length: Int32 = 0
        while ope_encoder_get_page(encoder, &page, &length, flushing ? 1 : 0) == 1, let page {
            bytes.append(contentsOf: UnsafeBufferPointer(start: page, count: Int(length)))
        }
        return bytes
    }
}
