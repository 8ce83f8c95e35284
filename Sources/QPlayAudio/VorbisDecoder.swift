import CVorbisFile
import QPlayModel
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Ogg Vorbis through libvorbisfile, sample-exact: the length is the stream's own
/// (`ov_pcm_total`; the encoder's padding is trimmed by the last granule position), and
/// `ov_pcm_seek` lands on the very frame asked for.
///
/// Decoded to 16 bits by libvorbisfile (`ov_read`: its float samples rounded and
/// clipped, no dither), leaving nothing of ours to run per sample but the widening;
/// `ov_read_float` with the rounding done here cost the same (60 s: 0.11–0.18 s either
/// way, C, -O2, loaded machine).
///
/// Chained files (several streams one after the other, as internet radio records are)
/// play on across a link of the same rate and channel count; the first link of another
/// format ends the file with a reason ("format changes within the file"), as
/// `frameCount` — the links that play — says beforehand. Damaged pages (a hole in the
/// data) are skipped, as players do; anything else wrong mid-stream ends the file with
/// the position and libvorbisfile's reason in words.
///
/// The file is read through a `BudgetedReader` (libvorbisfile's callback API): only
/// regular files are opened, and a search through junk is bounded.
public final class VorbisDecoder: AudioDecoder {
    public let format: AudioFormat
    /// Surround handed on in WAVE order (see `VorbisChannelOrder`).
    private let channelOrder: [Int]?
    public let frameCount: Int?
    /// The format of the first link that does not join the ones before: the file ends
    /// there (see `frameCount`).
    private let nextFormat: AudioFormat?
    private let file: UnsafeMutablePointer<OggVorbis_File>
    private let path: FilePath
    private let reader: BudgetedReader
    /// Referenced by `file` (unretained) and outlives it: deinit clears `file` first.
    private let source: OggSource
    /// The link the last samples came from (its format was checked then).
    private var link: Int32 = 0
    /// A failure met after some samples of the same read: those go out first.
    private var pendingFailure: DecoderError?
    /// libvorbisfile decodes to 16 bits here; `read` widens from it.
    private var staging = SampleStaging<Int16>()

    /// The most channels Vorbis defines an order for (7.1); more is refused.
    static let maximumChannels = 8

    public convenience init(path: FilePath) throws(DecoderError) {
        try self.init(reader: try BudgetedReader(opening: path), path: path)
    }

    init(reader: BudgetedReader, path: FilePath) throws(DecoderError) {
        let file = UnsafeMutablePointer<OggVorbis_File>.allocate(capacity: 1)
        // Opening reads the headers (a cover picture in the comments can be megabytes)
        // and, in a seekable file, visits the end and every link boundary: valid data
        // without audio, so only the time budget applies.
        reader.begin(positioning: true)
        let source = OggSource(reader)
        let opened = ov_open_callbacks(Unmanaged.passUnretained(source).toOpaque(), file, nil, 0, vorbisCallbacks)
        guard opened == 0 else {
            // A failed open has cleared `file` itself.
            file.deallocate()
            throw DecoderError(
                path: path,
                reason: reader.openFailureReason(searchingFor: "Ogg Vorbis audio") ?? Self.message(opened))
        }
        do throws(DecoderError) {
            guard let info = ov_info(file, 0)?.pointee, info.rate > 0, info.channels > 0 else {
                throw DecoderError(path: path, reason: "no Vorbis stream in the file")
            }
            guard info.channels <= Self.maximumChannels else {
                throw DecoderError(
                    path: path, reason: "\(info.channels) channels (qplay plays up to \(Self.maximumChannels))")
            }
            let format = AudioFormat(sampleRate: info.rate, channels: Int(info.channels))
            self.format = format
            self.channelOrder = VorbisChannelOrder.waveOrder(channels: self.format.channels)
            (self.frameCount, self.nextFormat) = Self.playableFrames(file, format)
        } catch {
            ov_clear(file)
            file.deallocate()
            throw error
        }
        self.file = file
        self.path = path
        self.reader = reader
        self.source = source
    }

    deinit {
        ov_clear(file)
        file.deallocate()
    }

    /// Counted here (the seek target plus the frames handed out since), not asked of
    /// the library: on a damaged file its granule positions need not agree with what
    /// it decoded.
    public private(set) var framePosition = 0

    public func read(into buffer: UnsafeMutableBufferPointer<Int32>) throws(DecoderError) -> Int {
        // Never past the length: on a damaged file the library can decode more than its
        // last granule position says (libopusfile 11,856 frames of a file of 7,680,
        // found by fuzzing), and the length is what the position and duration shown
        // are measured against.
        let remaining = frameCount.map { max(0, $0 - framePosition) } ?? Int.max
        if remaining == 0, let nextFormat { throw formatChange(to: nextFormat) }
        let wholeFrames = min(buffer.count / format.channels, remaining)
        let filled = try staging.decode(
            into: buffer, count: wholeFrames * format.channels, converting: Int32.init(leftJustifying:), reordering: channelOrder
        ) { shorts throws(DecoderError) in try readShorts(into: shorts) }
        framePosition += filled / format.channels
        return filled
    }

    /// Fills `buffer` (whole frames long) with whole frames; throws only when it has none.
    private func readShorts(into buffer: UnsafeMutableBufferPointer<Int16>) throws(DecoderError) -> Int {
        if let pendingFailure {
            self.pendingFailure = nil
            throw pendingFailure
        }
        let bigEndian: Int32 = 1.bigEndian == 1 ? 1 : 0
        var filled = 0
        reader.begin()
        while filled < buffer.count {
            var section: Int32 = 0
            // Bounded: one packet at most (4,096 frames), so the budgets start again
            // between calls that make audio.
            let result = ov_read(
                file, UnsafeMutableRawPointer(buffer.baseAddress! + filled).assumingMemoryBound(to: CChar.self),
                Int32(truncatingIfNeeded: min(buffer.count - filled, Self.samplesPerCall) * 2),
                bigEndian, 2, 1, &section)
            if result > 0 {
                if section != link, let change = formatChange(at: section) {
                    // The samples of the other format are dropped; the file ends here.
                    pendingFailure = change
                    break
                }
                link = section
                // libvorbisfile hands out whole frames (samples × channels × 2 bytes).
                filled += Int(result) / 2
                reader.audioArrived()
            } else if result == 0 {
                // libvorbisfile takes a failed read mid-stream for the end of the file.
                if reader.problem != nil { pendingFailure = failure(Int32(OV_EREAD)) }
                break
            } else if result == Int(OV_HOLE) {
                // A damaged or missing page: the samples it held are skipped, as players
                // do. Each hole reads on, so the junk budget ends a file of nothing else.
                continue
            } else {
                pendingFailure = failure(Int32(truncatingIfNeeded: result))
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

    public func seek(toFrame frame: Int) throws(DecoderError) {
        // A new place to play from: whatever stopped reading before is forgotten.
        reader.restart()
        pendingFailure = nil
        let target = max(0, frameCount.map { min(frame, $0) } ?? frame)
        // Bisecting for the page reads valid data without audio: only the time budget.
        reader.begin(positioning: true)
        let result = ov_pcm_seek(file, Int64(target))
        if result != 0 { throw failure(result, seeking: true) }
        framePosition = target
    }

    /// Samples asked of one `ov_read`.
    private static let samplesPerCall = 16 * 1024

    /// The frames of the links that play — those up to the first of another format —
    /// and that link's format.
    private static func playableFrames(
        _ file: UnsafeMutablePointer<OggVorbis_File>, _ format: AudioFormat
    ) -> (frames: Int?, next: AudioFormat?) {
        var total = 0
        for link in 0..<Int32(truncatingIfNeeded: ov_streams(file)) {
            guard let info = ov_info(file, link)?.pointee else { break }
            let linkFormat = AudioFormat(sampleRate: info.rate, channels: Int(info.channels))
            guard linkFormat.joins(format) else { return (total, linkFormat) }
            let frames = ov_pcm_total(file, link)
            guard frames >= 0 else { return (nil, nil) }
            total += Int(frames)
        }
        return (total, nil)
    }

    /// The failure a link of another format is, nil when it joins this stream.
    private func formatChange(at section: Int32) -> DecoderError? {
        guard let info = ov_info(file, section)?.pointee else { return nil }
        let other = AudioFormat(sampleRate: info.rate, channels: Int(info.channels))
        guard !other.joins(format) else { return nil }
        return formatChange(to: other)
    }

    private func formatChange(to other: AudioFormat) -> DecoderError {
        DecoderError(
            path: path, atFrame: framePosition, sampleRate: format.sampleRate,
            "format changes within the file (to \(other.sampleRate) Hz, \(other.channels) ch)")
    }

    /// A failure after opening, placed at the last frame decoded.
    private func failure(_ code: Int32, seeking: Bool = false) -> DecoderError {
        DecoderError(
            path: path, atFrame: framePosition, sampleRate: format.sampleRate,
            reader.failureReason(seeking: seeking) ?? Self.message(code))
    }

    /// libvorbisfile's codes in words.
    static func message(_ code: Int32) -> String {
        switch code {
        case OV_HOLE: "hole in the data (a damaged page)"
        case OV_EREAD: "read error"
        case OV_EFAULT: "internal error in libvorbisfile"
        case OV_EIMPL: "a Vorbis feature libvorbis does not implement"
        case OV_EINVAL: "damaged Vorbis headers"
        case OV_ENOTVORBIS: "not Ogg Vorbis"
        case OV_EBADHEADER: "bad Vorbis header"
        case OV_EVERSION: "unsupported Vorbis version"
        case OV_ENOTAUDIO: "not audio"
        case OV_EBADPACKET: "bad packet"
        case OV_EBADLINK: "damaged link in the stream"
        case OV_ENOSEEK: "the file is not seekable"
        default: "libvorbisfile error \(code)"
        }
    }
}

/// libvorbisfile's I/O on an `OggSource` (the data source, unretained).
private let vorbisCallbacks = ov_callbacks(
    read_func: { destination, size, count, source in
        guard let destination, let source else { return 0 }
        let got = Unmanaged<OggSource>.fromOpaque(source).takeUnretainedValue()
            .read(into: destination, count: size * count)
        // libvorbisfile tells an error from the end by errno after a 0.
        guard got >= 0 else {
            errno = EIO
            return 0
        }
        errno = 0
        return size > 0 ? got / size : 0
    },
    seek_func: { source, offset, whence in
        guard let source else { return -1 }
        let stream = Unmanaged<OggSource>.fromOpaque(source).takeUnretainedValue()
        return stream.seek(offset: Int(offset), whence: whence) < 0 ? -1 : 0
    },
    close_func: nil,
    tell_func: { source in
        guard let source else { return -1 }
        return Unmanaged<OggSource>.fromOpaque(source).takeUnretainedValue().position
    })

/// Ogg Vorbis, through libvorbisfile.
struct VorbisFormat: FormatDecoder {
    var format: AudioFileFormat { .vorbis }

    func open(_ reader: BudgetedReader, path: FilePath) throws(DecoderError) -> any AudioDecoder {
        try VorbisDecoder(reader: reader, path: path)
    }
}
