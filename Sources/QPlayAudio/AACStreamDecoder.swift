import CFFmpeg
import SystemPackage

/// An AAC stream in ADTS frames (internet radio's `audio/aac`, `audio/aacp`) through
/// libavcodec: its ADTS parser cuts whatever bytes the buffer holds into frames — it
/// keeps a frame it has only part of for the next bytes, so it needs no demuxer and
/// never waits — and its AAC decoder (LC and HE) decodes them. The first frame is
/// decoded on opening (waiting for the network there, on the opener's thread): its rate
/// is the stream's (HE-AAC decodes at twice the rate its header states). `read` then
/// gives 0 when the buffer holds no whole frame (`LiveStreamDecoder` turns that into
/// silence or the end). Rounded to 16 bits from libavcodec's floats, as the file
/// decoder's AAC is (`FFmpegSamples`).
final class AACStreamDecoder: AudioDecoder {
    let format: AudioFormat
    var frameCount: Int? { nil }
    private(set) var framePosition = 0
    private let frames: ADTSFrames
    private let path: FilePath
    private let samples: FFmpegSamples
    /// The frame holds samples not yet handed out, from `frameOffset` on.
    private var frameHeld = false
    private var frameOffset = 0

    /// What opening reads before giving up on finding a frame.
    static let searchLimit = 256 * 1024

    init(feed: StreamFeed, path: FilePath, until deadline: ContinuousClock.Instant) throws(DecoderError) {
        let frames = try ADTSFrames(feed: feed, path: path)
        while true {
            do throws(ADTSFrames.Failure) {
                if try frames.next() { break }
            } catch {
                throw DecoderError(path: path, reason: error.reason)
            }
            if let ended = feed.ended { throw DecoderError(path: path, reason: ended ?? "the stream ended before any audio") }
            guard frames.searched < Self.searchLimit else {
                throw DecoderError(path: path, reason: "no AAC (ADTS) audio in the stream (searched 256 KB)")
            }
            guard ContinuousClock.now < deadline else { throw DecoderError(path: path, reason: "no audio arrived in time") }
            feed.waitForBytes(1, until: deadline)
        }
        let frame = frames.frame
        let channels = Int(frame.pointee.ch_layout.nb_channels)
        let rate = Int(frame.pointee.sample_rate)
        guard (1...FFmpegDecoder.maximumChannels).contains(channels), rate > 0,
            let samples = FFmpegSamples(format: AVSampleFormat(rawValue: frame.pointee.format), rawBits: 0, lossy: true)
        else {
            throw DecoderError(path: path, reason: "an AAC stream qplay does not play (\(channels) channels at \(rate) Hz)")
        }
        self.frames = frames
        self.path = path
        self.samples = samples
        format = AudioFormat(sampleRate: rate, channels: channels, bits: samples.bits)
        frameHeld = true
    }

    func read(into buffer: UnsafeMutableBufferPointer<Int32>) throws(DecoderError) -> Int {
        let channels = format.channels
        let wanted = buffer.count / channels
        guard wanted > 0, let base = buffer.baseAddress else { return 0 }
        let frame = frames.frame
        var filled = 0
        while filled < wanted {
            if !frameHeld {
                do throws(ADTSFrames.Failure) {
                    guard try frames.next() else { break }
                } catch {
                    if filled > 0 { break }
                    throw failure(error.reason)
                }
                let rate = Int(frame.pointee.sample_rate)
                let frameChannels = Int(frame.pointee.ch_layout.nb_channels)
                guard rate == format.sampleRate, frameChannels == channels else {
                    av_frame_unref(frame)
                    if filled > 0 { break }
                    throw failure("the stream changed its format (to \(rate) Hz, \(frameChannels) ch)")
                }
                frameHeld = true
                frameOffset = 0
            }
            let taken = min(Int(frame.pointee.nb_samples) - frameOffset, wanted - filled)
            samples.convert(frame, from: frameOffset, count: taken, channels: channels, into: base + filled * channels)
            filled += taken
            frameOffset += taken
            if frameOffset >= Int(frame.pointee.nb_samples) {
                av_frame_unref(frame)
                frameHeld = false
            }
        }
        framePosition += filled
        return filled * channels
    }

    func seek(toFrame frame: Int) throws(DecoderError) {}

    private func failure(_ what: String) -> DecoderError {
        DecoderError(path: path, atFrame: framePosition, sampleRate: format.sampleRate, what)
    }
}

/// libavcodec's ADTS parser and AAC decoder over a `StreamFeed`: bytes in as they come,
/// decoded frames out, one at a time into `frame`.
private final class ADTSFrames {
    struct Failure: Error {
        let reason: String
    }

    private let feed: StreamFeed
    private var parser: UnsafeMutablePointer<AVCodecParserContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var decoded: UnsafeMutablePointer<AVFrame>?
    /// Bytes read from the feed that the parser has not taken yet.
    private var pending = [UInt8](repeating: 0, count: 4096)
    private var pendingStart = 0
    private var pendingEnd = 0
    /// Bytes read from the feed so far.
    private(set) var searched = 0

    init(feed: StreamFeed, path: FilePath) throws(DecoderError) {
        self.feed = feed
        FFmpegInput.silenceLogging
        parser = av_parser_init(Int32(AV_CODEC_ID_AAC.rawValue))
        guard let decoder = avcodec_find_decoder(AV_CODEC_ID_AAC) else {
            throw DecoderError(path: path, reason: "no FFmpeg decoder for AAC")
        }
        codec = avcodec_alloc_context3(decoder)
        packet = av_packet_alloc()
        decoded = av_frame_alloc()
        guard parser != nil, let codec, packet != nil, decoded != nil else {
            throw DecoderError(path: path, reason: "out of memory")
        }
        codec.pointee.thread_count = 1
        let opened = avcodec_open2(codec, decoder, nil)
        guard opened >= 0 else {
            throw DecoderError(path: path, reason: "FFmpeg could not open its decoder (\(FFmpegInput.describe(opened)))")
        }
    }

    deinit {
        av_frame_free(&decoded)
        av_packet_free(&packet)
        avcodec_free_context(&codec)
        av_parser_close(parser)
    }

    /// The frame `next()` fills (allocated in init, which fails without it).
    var frame: UnsafeMutablePointer<AVFrame> { decoded! }

    /// Decodes the next frame into `frame` from what the feed holds now; false when it
    /// holds no whole ADTS frame (or the stream is over). Damaged frames are skipped.
    func next() throws(Failure) -> Bool {
        guard let parser, let codec, let packet, let decoded else { return false }
        while true {
            let received = avcodec_receive_frame(codec, decoded)
            if received >= 0 { return true }
            guard received == QP_AVERROR_EAGAIN || received == QP_AVERROR_INVALIDDATA else {
                throw Failure(reason: FFmpegInput.describe(received))
            }
            if pendingStart == pendingEnd {
                let got = pending.withUnsafeMutableBytes { feed.read(into: $0.baseAddress!, count: $0.count) }
                guard got > 0 else { return false }
                searched += got
                pendingStart = 0
                pendingEnd = got
            }
            var data: UnsafeMutablePointer<UInt8>?
            var size: Int32 = 0
            let used = pending.withUnsafeMutableBufferPointer { bytes in
                av_parser_parse2(
                    parser, codec, &data, &size, bytes.baseAddress! + pendingStart, Int32(pendingEnd - pendingStart),
                    QP_AV_NOPTS_VALUE, QP_AV_NOPTS_VALUE, 0)
            }
            // A parser that takes nothing and gives nothing would be asked forever.
            pendingStart = used > 0 ? pendingStart + Int(used) : pendingEnd
            guard size > 0, let data else { continue }
            // The parser's frame is its own memory until the next parse: sent (and
            // copied by libavcodec) before that.
            packet.pointee.data = data
            packet.pointee.size = size
            let sent = avcodec_send_packet(codec, packet)
            packet.pointee.data = nil
            packet.pointee.size = 0
            if sent < 0 && sent != QP_AVERROR_INVALIDDATA && sent != QP_AVERROR_EAGAIN {
                throw Failure(reason: FFmpegInput.describe(sent))
            }
        }
    }
}
