import CVorbisFile
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// An Ogg Vorbis stream (internet radio) through libvorbisfile's callback API over a
/// `StreamFeed`, unseekable: the headers are read on opening (waiting for the network
/// there, on the opener's thread), then `read` decodes what the buffer holds and gives
/// 0 when it holds too little (`LiveStreamDecoder` turns that into silence or the end).
/// libvorbisfile keeps a page it has only part of and carries on with it on the next
/// call. A new link of the same rate and channel count (a station's next track) plays
/// on; one of another format ends the stream with the reason.
final class VorbisStreamDecoder: AudioDecoder {
    let format: AudioFormat
    var frameCount: Int? { nil }
    private(set) var framePosition = 0
    private let file: UnsafeMutablePointer<OggVorbis_File>
    /// Referenced by `file` (unretained) and outlives it: deinit clears `file` first.
    private let feed: StreamFeed
    private let path: FilePath
    private let channelOrder: [Int]?
    /// The link the last samples came from (its format was checked then).
    private var link: Int32 = 0
    private var pendingFailure: DecoderError?
    private var staging = SampleStaging<Int16>()

    init(feed: StreamFeed, path: FilePath, until deadline: ContinuousClock.Instant) throws(DecoderError) {
        let file = UnsafeMutablePointer<OggVorbis_File>.allocate(capacity: 1)
        feed.waitingUntil = deadline
        defer { feed.waitingUntil = nil }
        let opened = ov_open_callbacks(Unmanaged.passUnretained(feed).toOpaque(), file, nil, 0, streamCallbacks)
        guard opened == 0 else {
            file.deallocate()
            throw DecoderError(path: path, reason: feed.ended.map { $0 ?? "the stream ended before any audio" }
                ?? "not an Ogg Vorbis stream: \(VorbisDecoder.message(opened))")
        }
        guard let info = ov_info(file, -1)?.pointee, info.rate > 0,
            (1...VorbisDecoder.maximumChannels).contains(Int(info.channels))
        else {
            ov_clear(file)
            file.deallocate()
            throw DecoderError(path: path, reason: "a Vorbis stream qplay does not play (1 to 8 channels)")
        }
        format = AudioFormat(sampleRate: info.rate, channels: Int(info.channels))
        channelOrder = VorbisChannelOrder.waveOrder(channels: format.channels)
        self.file = file
        self.feed = feed
        self.path = path
    }

    deinit {
        ov_clear(file)
        file.deallocate()
    }

    func read(into buffer: UnsafeMutableBufferPointer<Int32>) throws(DecoderError) -> Int {
        let filled = try staging.decode(
            into: buffer, count: buffer.count - buffer.count % format.channels,
            converting: Int32.init(leftJustifying:), reordering: channelOrder
        ) { shorts throws(DecoderError) in try readShorts(into: shorts) }
        framePosition += filled / format.channels
        return filled
    }

    /// Whole frames of what the buffer holds now; 0 when it holds no packet.
    private func readShorts(into buffer: UnsafeMutableBufferPointer<Int16>) throws(DecoderError) -> Int {
        if let pendingFailure {
            self.pendingFailure = nil
            throw pendingFailure
        }
        let bigEndian: Int32 = 1.bigEndian == 1 ? 1 : 0
        var filled = 0
        while filled < buffer.count {
            var section: Int32 = 0
            let result = ov_read(
                file, UnsafeMutableRawPointer(buffer.baseAddress! + filled).assumingMemoryBound(to: CChar.self),
                Int32(truncatingIfNeeded: (buffer.count - filled) * 2), bigEndian, 2, 1, &section)
            if result > 0 {
                if section != link {
                    link = section
                    if let info = ov_info(file, -1)?.pointee,
                        info.rate != format.sampleRate || Int(info.channels) != format.channels
                    {
                        pendingFailure = DecoderError(
                            path: path, atFrame: framePosition, sampleRate: format.sampleRate,
                            "the stream changed its format (to \(info.rate) Hz, \(info.channels) ch)")
                        break
                    }
                }
                filled += Int(result) / 2
            } else if result == 0 {
                // Nothing buffered now, or the stream's end: the feed tells which.
                break
            } else if result == Int(OV_HOLE) {
                // A lost page (a gap in what the server sent): skipped, as players do.
                continue
            } else {
                pendingFailure = DecoderError(
                    path: path, atFrame: framePosition, sampleRate: format.sampleRate,
                    VorbisDecoder.message(Int32(truncatingIfNeeded: result)))
                break
            }
        }
        filled -= filled % format.channels
        if filled == 0, let pendingFailure {
            self.pendingFailure = nil
            throw pendingFailure
        }
        return filled
    }

    func seek(toFrame frame: Int) throws(DecoderError) {}
}

/// libvorbisfile's reads from a `StreamFeed` (unretained); no seek or tell: unseekable.
private let streamCallbacks = ov_callbacks(
    read_func: { destination, size, count, feed in
        guard let destination, let feed, size > 0 else { return 0 }
        // 0 with errno 0 is "no more now" to libvorbisfile, which asks again next call.
        errno = 0
        return Unmanaged<StreamFeed>.fromOpaque(feed).takeUnretainedValue()
            .read(into: destination, count: size * count) / size
    },
    seek_func: nil, close_func: nil, tell_func: nil)
