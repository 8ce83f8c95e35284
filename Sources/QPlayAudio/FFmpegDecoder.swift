import CFFmpeg
import QPlayModel
import SystemPackage

/// The catch-all decoder, as MPD has it: AAC (LC, HE) and ALAC in MP4, ADTS AAC, WAV and
/// AIFF (integer PCM of 8 to 32 bits, float), WavPack — through libavformat's demuxer
/// (`FFmpegInput`, over a `BudgetedReader`) and libavcodec. Lossless formats come out at
/// their depth, AAC rounded to 16 bits (see `FFmpegSamples`).
///
/// Exact: the length is the edit list's (libavformat turns its start into skipped
/// samples, and the stream's duration is the edit's), or an iTunes `iTunSMPB` tag's
/// sample count (libavformat skips its encoder delay), or the container's for the
/// lossless formats, which are exact by nature; nothing past it is handed out. ADTS
/// gives no length (FFmpeg would only estimate it from the bit rate). A seek lands on the
/// very frame asked for: libavformat seeks to a packet before it, and what decodes
/// before the target is dropped — from `settling` earlier for AAC, whose decoder needs
/// the frames before to give what a continuous decode gives.
///
/// Damaged packets are skipped, as players do; the reader's junk budget ends a file of
/// nothing else, its time budget one whose demuxing or decoding stalls.
public final class FFmpegDecoder: AudioDecoder {
    public let format: AudioFormat
    public let frameCount: Int?
    public let chapters: [Chapter]
    /// The seek target plus the frames handed out since.
    public private(set) var framePosition = 0
    private let stream: FFmpegStream
    private let samples: FFmpegSamples
    private let timeBase: AVRational
    /// The first sample's timestamp (in `timeBase`): positions count from it.
    private let origin: Int64
    /// What is decoded unheard before a seek's target (0 for lossless codecs).
    private let settling: Int
    private let path: FilePath
    /// The stream's frame holds samples not yet handed out, from `frameOffset` on.
    private var frameHeld = false
    private var frameOffset = 0
    /// A failure met after some samples of the same read: those go out first.
    private var pendingFailure: DecoderError?

    /// What a lossy decoder decodes unheard before a seek's target: 4 AAC frames.
    static let lossySettling = 4096
    /// The most channels with a defined layout (7.1); more is refused.
    static let maximumChannels = 8

    public convenience init(path: FilePath) throws(DecoderError) {
        try self.init(reader: try BudgetedReader(opening: path), path: path, what: "audio")
    }

    init(reader: BudgetedReader, path: FilePath, what: String) throws(DecoderError) {
        let input = try FFmpegInput(reader: reader, path: path, what: what)
        let stream = try FFmpegStream(input, path: path, what: what)
        // The format is the first frame's (HE-AAC decodes at twice the rate its
        // container states); that frame is held and handed out first.
        reader.begin()
        let decoded: Bool
        do throws(FFmpegStream.Failure) {
            decoded = try stream.decode()
        } catch {
            throw DecoderError(path: path, reason: reader.openFailureReason(searchingFor: what) ?? error.reason)
        }
        guard decoded, let frame = stream.frame, let codec = stream.codec else {
            throw DecoderError(path: path, reason: reader.openFailureReason(searchingFor: what) ?? "no \(what) in the file")
        }
        let channels = Int(frame.pointee.ch_layout.nb_channels)
        let rate = Int(frame.pointee.sample_rate)
        guard (1...Self.maximumChannels).contains(channels), rate > 0 else {
            throw DecoderError(path: path, reason: "\(channels) channels at \(rate) Hz (qplay plays 1 to 8 channels)")
        }
        guard
            let samples = FFmpegSamples(
                format: AVSampleFormat(rawValue: frame.pointee.format), rawBits: codec.pointee.bits_per_raw_sample,
                lossy: stream.lossy)
        else {
            throw DecoderError(path: path, reason: "unsupported sample format (\(frame.pointee.format))")
        }
        self.format = AudioFormat(sampleRate: rate, channels: channels, bits: samples.bits)
        self.samples = samples
        self.stream = stream
        self.timeBase = stream.stream.pointee.time_base
        self.origin = Self.timestamp(frame) ?? 0
        self.settling = stream.lossy ? Self.lossySettling : 0
        self.path = path
        let frameCount = Self.length(input, stream.stream, rate: rate)
        self.frameCount = frameCount
        self.chapters = input.chapters(
            origin: Double(origin) * av_q2d(timeBase), length: frameCount.map { Double($0) / Double(rate) })
        self.frameHeld = true
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Int32>) throws(DecoderError) -> Int {
        if let pendingFailure {
            self.pendingFailure = nil
            throw pendingFailure
        }
        let channels = format.channels
        // Never past the length: the last AAC frame's padding, or a damaged file's
        // decoder giving more than its container says.
        let remaining = frameCount.map { max(0, $0 - framePosition) } ?? Int.max
        let wanted = min(buffer.count / channels, remaining)
        guard wanted > 0, let base = buffer.baseAddress, let frame = stream.frame else { return 0 }
        stream.input.reader.begin()
        var filled = 0
        while filled < wanted {
            if !frameHeld {
                do throws(DecoderError) {
                    guard try next() else { break }
                    try checkFormat(frame)
                } catch {
                    if filled == 0 { throw error }
                    pendingFailure = error
                    break
                }
                frameHeld = true
                frameOffset = 0
            }
            let taken = min(Int(frame.pointee.nb_samples) - frameOffset, wanted - filled)
            samples.convert(frame, from: frameOffset, count: taken, channels: channels, into: base + filled * channels)
            filled += taken
            frameOffset += taken
            if frameOffset >= Int(frame.pointee.nb_samples) { release() }
        }
        framePosition += filled
        return filled * channels
    }

    public func seek(toFrame frame: Int) throws(DecoderError) {
        // A new place to play from: whatever stopped reading before is forgotten.
        let reader = stream.input.reader
        reader.restart()
        pendingFailure = nil
        release()
        let target = max(0, frameCount.map { min(frame, $0) } ?? frame)
        // Seeking and decoding unheard produce no audio for us: only the time budget.
        reader.begin(positioning: true)
        // Before the first frame too: a packet at the start has its encoder delay
        // skipped again, and the one after it decodes only with it before.
        let start = target - settling
        do throws(FFmpegStream.Failure) {
            try stream.seek(to: origin + av_rescale_q(Int64(start), perSample, timeBase), first: origin)
        } catch {
            throw failure(reader.failureReason(seeking: true) ?? error.reason)
        }
        framePosition = target
        guard let decoded = stream.frame else { return }
        while true {
            let more: Bool
            do throws(DecoderError) {
                more = try next()
            } catch {
                throw failure(reader.failureReason(seeking: true) ?? "cannot seek: \(error.reason)")
            }
            guard more else { return }
            frameHeld = true
            frameOffset = 0
            // No timestamp to place it by: it plays from where the seek asked.
            guard let at = Self.timestamp(decoded).map(position(of:)) else { return }
            let count = Int(decoded.pointee.nb_samples)
            if at + count <= target {
                release()
                continue
            }
            frameOffset = max(0, target - at)
            // Landed after the target (no packet before it to go to): the position is
            // where the audio is.
            if at > target { framePosition = at }
            return
        }
    }

    /// The stream's next frame, its failure placed at the position.
    private func next() throws(DecoderError) -> Bool {
        do throws(FFmpegStream.Failure) {
            return try stream.decode()
        } catch {
            throw failure(error.reason)
        }
    }

    private func checkFormat(_ frame: UnsafeMutablePointer<AVFrame>) throws(DecoderError) {
        let channels = Int(frame.pointee.ch_layout.nb_channels)
        let rate = Int(frame.pointee.sample_rate)
        guard channels != format.channels || rate != format.sampleRate else { return }
        throw failure("format changes within the file (to \(rate) Hz, \(channels) ch)")
    }

    private func release() {
        if frameHeld { stream.releaseFrame() }
        frameHeld = false
        frameOffset = 0
    }

    /// One sample's duration, as FFmpeg's rescaling takes it.
    private var perSample: AVRational { AVRational(num: 1, den: Int32(format.sampleRate)) }

    /// The frame (from the first) a decoded frame's timestamp stands for.
    private func position(of timestamp: Int64) -> Int {
        Int(av_rescale_q(timestamp - origin, timeBase, perSample))
    }

    private static func timestamp(_ frame: UnsafeMutablePointer<AVFrame>) -> Int64? {
        let value = frame.pointee.best_effort_timestamp
        return value == QP_AV_NOPTS_VALUE ? nil : value
    }

    /// The exact length in frames at `rate`: iTunSMPB's sample count, else the stream's
    /// duration (an edit list's, or the container's); nil for ADTS, whose duration
    /// FFmpeg only estimates from the bit rate.
    private static func length(_ input: FFmpegInput, _ stream: UnsafeMutablePointer<AVStream>, rate: Int) -> Int? {
        guard let context = input.context else { return nil }
        let tag =
            av_dict_get(context.pointee.metadata, "iTunSMPB", nil, 0)
            ?? av_dict_get(stream.pointee.metadata, "iTunSMPB", nil, 0)
        if let value = tag?.pointee.value, let info = ITunesGaplessInfo(String(cString: value)) { return info.frames }
        guard Self.demuxerDuration(context), stream.pointee.duration != QP_AV_NOPTS_VALUE, stream.pointee.duration > 0
        else { return nil }
        return Int(av_rescale_q(stream.pointee.duration, stream.pointee.time_base, AVRational(num: 1, den: Int32(rate))))
    }

    /// Whether the container states the duration (an estimate from the bit rate is
    /// all ADTS has).
    private static func demuxerDuration(_ context: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        guard let name = context.pointee.iformat?.pointee.name else { return false }
        return String(cString: name) != "aac"
    }

    /// A failure after opening, placed at the last frame decoded.
    private func failure(_ what: String) -> DecoderError {
        DecoderError(path: path, atFrame: framePosition, sampleRate: format.sampleRate, what)
    }
}

/// An iTunes `iTunSMPB` tag: " 00000000 00000840 000001CA 00000000000CBEF6 …" — hex
/// fields: a zero, the encoder delay, the padding and the original sample count.
struct ITunesGaplessInfo {
    let delay: Int
    let padding: Int
    let frames: Int

    init?(_ text: String) {
        let fields = text.split(separator: " ").map { Int($0, radix: 16) }
        guard fields.count >= 4, let delay = fields[1], let padding = fields[2], let frames = fields[3], frames > 0
        else { return nil }
        self.delay = delay
        self.padding = padding
        self.frames = frames
    }
}

/// A format of the format table FFmpeg decodes.
struct FFmpegFormat: FormatDecoder {
    let format: AudioFileFormat

    init(_ format: AudioFileFormat) {
        self.format = format
    }

    func open(_ reader: BudgetedReader, path: FilePath) throws(DecoderError) -> any AudioDecoder {
        try FFmpegDecoder(reader: reader, path: path, what: "\(format.row.displayName) audio")
    }
}
