import CFFmpeg
import SystemPackage

/// The audio stream of an `FFmpegInput` and libavcodec's decoder for it: packets in,
/// frames out, one at a time into `frame`. Every other stream (cover art, a chapter
/// track) is discarded unread.
final class FFmpegStream {
    let input: FFmpegInput
    let index: Int32
    let stream: UnsafeMutablePointer<AVStream>
    let lossy: Bool
    private(set) var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    /// The frame `decode()` fills.
    private(set) var frame: UnsafeMutablePointer<AVFrame>?
    /// The decoder was sent the stream's end.
    private var draining = false

    /// Why decoding stopped, in words (the decoder places it in the file).
    struct Failure: Error {
        let reason: String
    }

    init(_ input: FFmpegInput, path: FilePath, what: String) throws(DecoderError) {
        self.input = input
        guard let context = input.context else { throw DecoderError(path: path, reason: "out of memory") }
        // The first audio stream (libavformat's choice of the "best" one wants a rate
        // and channel count, which ADTS has only once frames are probed).
        let audio = (0..<Int(context.pointee.nb_streams)).first {
            context.pointee.streams[$0]?.pointee.codecpar?.pointee.codec_type == AVMEDIA_TYPE_AUDIO
        }
        guard let audio, let stream = context.pointee.streams[audio], let parameters = stream.pointee.codecpar else {
            throw DecoderError(
                path: path, reason: input.reader.openFailureReason(searchingFor: what) ?? "no audio stream in the file")
        }
        for other in 0..<Int(context.pointee.nb_streams) where other != audio {
            context.pointee.streams[other]?.pointee.discard = AVDISCARD_ALL
        }
        index = Int32(audio)
        self.stream = stream
        let properties = avcodec_descriptor_get(parameters.pointee.codec_id)?.pointee.props ?? 0
        // WavPack says both (its hybrid mode is lossy): decoded as the lossless one.
        lossy = properties & QP_AV_CODEC_PROP_LOSSY != 0 && properties & QP_AV_CODEC_PROP_LOSSLESS == 0
        // From here deinit frees what was made.
        guard let decoder = avcodec_find_decoder(parameters.pointee.codec_id) else {
            let name = avcodec_get_name(parameters.pointee.codec_id).map { String(cString: $0) } ?? "unknown"
            throw DecoderError(path: path, reason: "no FFmpeg decoder for its codec (\(name))")
        }
        codec = avcodec_alloc_context3(decoder)
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        guard let codec, packet != nil, frame != nil else { throw DecoderError(path: path, reason: "out of memory") }
        guard avcodec_parameters_to_context(codec, parameters) >= 0 else {
            throw DecoderError(path: path, reason: "FFmpeg could not take the stream's parameters")
        }
        codec.pointee.thread_count = 1
        // Decoded frames' timestamps in the stream's time base, moved by the samples a
        // packet says to skip (an edit list's or iTunSMPB's encoder delay).
        codec.pointee.pkt_timebase = stream.pointee.time_base
        let opened = avcodec_open2(codec, decoder, nil)
        guard opened >= 0 else {
            throw DecoderError(path: path, reason: "FFmpeg could not open its decoder (\(FFmpegInput.describe(opened)))")
        }
    }

    deinit {
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codec)
    }

    /// Decodes the next frame into `frame`; false at the stream's end. Damaged packets
    /// are skipped (the reader's junk budget ends a file of nothing else).
    func decode() throws(Failure) -> Bool {
        guard let codec, let packet, let frame else { return false }
        while true {
            let received = avcodec_receive_frame(codec, frame)
            if received >= 0 {
                input.reader.audioArrived()
                return true
            }
            if received == QP_AVERROR_EOF { return false }
            if received == QP_AVERROR_INVALIDDATA { continue }
            guard received == QP_AVERROR_EAGAIN else { throw Failure(reason: FFmpegInput.describe(received)) }
            if draining { return false }
            let read = av_read_frame(input.context, packet)
            if read < 0 {
                if let reason = input.reader.failureReason(seeking: false) { throw Failure(reason: reason) }
                // The end, or what a damaged file's demuxer cannot get past: what the
                // decoder holds still comes out.
                draining = true
                _ = avcodec_send_packet(codec, nil)
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == index else { continue }
            let sent = avcodec_send_packet(codec, packet)
            if sent < 0 && sent != QP_AVERROR_INVALIDDATA && sent != QP_AVERROR_EAGAIN {
                throw Failure(reason: FFmpegInput.describe(sent))
            }
        }
    }

    /// Moves the demuxer to the packet at or before `timestamp` (in the stream's time
    /// base) and empties the decoder.
    /// `first` is the first sample's timestamp: a demuxer that knows nothing before it
    /// (a generic index) is sent there instead of before it.
    func seek(to timestamp: Int64, first: Int64) throws(Failure) {
        var moved = av_seek_frame(input.context, index, timestamp, AVSEEK_FLAG_BACKWARD)
        if moved < 0 && timestamp < first {
            input.reader.restart()
            moved = av_seek_frame(input.context, index, first, AVSEEK_FLAG_BACKWARD)
        }
        guard moved >= 0 else { throw Failure(reason: "cannot seek (\(FFmpegInput.describe(moved)))") }
        avcodec_flush_buffers(codec)
        draining = false
    }

    /// Forgets the frame's samples.
    func releaseFrame() {
        if let frame { av_frame_unref(frame) }
    }
}
