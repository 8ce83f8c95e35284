import COpusFile
import SystemPackage

/// An Ogg Opus stream (internet radio) through libopusfile's callback API over a
/// `StreamFeed`, unseekable: the headers are read on opening (waiting for the network
/// there, on the opener's thread), then `read` decodes what the buffer holds and gives
/// 0 when it holds too little (`LiveStreamDecoder` turns that into silence or the end).
/// Always 48 kHz stereo (`op_read_float_stereo`, surround mixed down by libopusfile), so
/// a station's next link plays on whatever its channel count; rounded to 16 bits as the
/// file decoder's samples are.
final class OpusStreamDecoder: AudioDecoder {
    let format = AudioFormat(sampleRate: 48000, channels: 2)
    var frameCount: Int? { nil }
    private(set) var framePosition = 0
    private let file: OpaquePointer
    /// Referenced by `file` (unretained) and outlives it: deinit frees `file` first.
    private let feed: StreamFeed
    private let path: FilePath
    private var pendingFailure: DecoderError?
    private var staging = SampleStaging<Float>()

    init(feed: StreamFeed, path: FilePath, until deadline: ContinuousClock.Instant) throws(DecoderError) {
        feed.waitingUntil = deadline
        defer { feed.waitingUntil = nil }
        var code: Int32 = 0
        let file = withUnsafePointer(to: streamCallbacks) {
            op_open_callbacks(Unmanaged.passUnretained(feed).toOpaque(), $0, nil, 0, &code)
        }
        guard let file else {
            throw DecoderError(path: path, reason: feed.ended.map { $0 ?? "the stream ended before any audio" }
                ?? "not an Ogg Opus stream: \(OpusDecoder.message(code))")
        }
        self.file = file
        self.feed = feed
        self.path = path
    }

    deinit {
        op_free(file)
    }

    func read(into buffer: UnsafeMutableBufferPointer<Int32>) throws(DecoderError) -> Int {
        let filled = try staging.decode(
            into: buffer, count: buffer.count - buffer.count % 2, converting: Int32.init(roundingTo16Bits:)
        ) { samples throws(DecoderError) in try readFloats(into: samples) }
        framePosition += filled / 2
        return filled
    }

    /// Whole frames of what the buffer holds now; 0 when it holds no packet.
    private func readFloats(into buffer: UnsafeMutableBufferPointer<Float>) throws(DecoderError) -> Int {
        if let pendingFailure {
            self.pendingFailure = nil
            throw pendingFailure
        }
        var filled = 0
        while filled < buffer.count {
            let result = op_read_float_stereo(
                file, buffer.baseAddress! + filled, Int32(truncatingIfNeeded: buffer.count - filled))
            if result > 0 {
                filled += Int(result) * 2
            } else if result == 0 {
                // Nothing buffered now, or the stream's end: the feed tells which.
                break
            } else if result == OP_HOLE {
                // A lost page (a gap in what the server sent): skipped, as players do.
                continue
            } else {
                pendingFailure = DecoderError(
                    path: path, atFrame: framePosition, sampleRate: format.sampleRate, OpusDecoder.message(result))
                break
            }
        }
        if filled == 0, let pendingFailure {
            self.pendingFailure = nil
            throw pendingFailure
        }
        return filled
    }

    func seek(toFrame frame: Int) throws(DecoderError) {}
}

/// libopusfile's reads from a `StreamFeed` (unretained); no seek or tell: unseekable.
private let streamCallbacks = OpusFileCallbacks(
    read: { feed, destination, count in
        guard let feed, let destination else { return -1 }
        return Int32(
            truncatingIfNeeded: Unmanaged<StreamFeed>.fromOpaque(feed).takeUnretainedValue()
                .read(into: destination, count: Int(count)))
    },
    seek: nil, tell: nil, close: nil)
