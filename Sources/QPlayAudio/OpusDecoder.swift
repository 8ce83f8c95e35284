import COpusFile
import QPlayModel
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Opus (in Ogg) through libopusfile, sample-exact: always 48 kHz, the decode rate;
/// the header's pre-skip is dropped and the end trimmed to the last granule position,
/// so the length (`op_pcm_total`) is the encoder's input length and `op_pcm_seek` lands
/// on the very frame asked for. The header's output gain is applied (libopusfile's
/// default); R128 gain tags are ReplayGain, applied with the volume, not here.
///
/// Decoded as floats (`op_read_float`) and rounded to 16 bits here, as libopus's own
/// 16-bit API does: `op_read` adds noise-shaped dither, which cost 30–40 % more time
/// per file (60 s at 128 kb/s: 0.28–0.35 s against 0.40–0.50 s, C, -O2, loaded
/// machine), and whose state after a seek differs from a continuous decode's. In the
/// channels the header says: up to 8 (the defined surround layouts), each as it is — the output (ALSA's
/// plug layer, or the converter for fixed-format outputs) fits them to the device.
/// Chained files and damaged pages are handled as `VorbisDecoder` does: a link with
/// another channel count ends the file with a reason, holes are skipped.
///
/// The file is read through a `BudgetedReader` (libopusfile's callback API).
public final class OpusDecoder: AudioDecoder {
    public let format: AudioFormat
    /// Surround handed on in WAVE order (see `VorbisChannelOrder`).
    private let channelOrder: [Int]?
    public let frameCount: Int?
    /// The channel count of the first link with another one than the links before: the
    /// file ends there (see `frameCount`).
    private let nextChannels: Int?
    private let file: OpaquePointer
    private let path: FilePath
    private let reader: BudgetedReader
    /// Referenced by `file` (unretained) and outlives it: deinit frees `file` first.
    private let source: OggSource
    /// The link the last samples came from (its channel count was checked then).
    private var link: Int32 = 0
    /// A failure met after some samples of the same read: those go out first.
    private var pendingFailure: DecoderError?
    private var staging = SampleStaging<Float>()

    /// Opus always decodes at 48 kHz, whatever rate the encoder was given.
    static let sampleRate = 48000
    /// The most channels with a defined layout (7.1); more is refused.
    static let maximumChannels = 8

    public convenience init(path: FilePath) throws(DecoderError) {
        try self.init(reader: try BudgetedReader(opening: path), path: path)
    }

    init(reader: BudgetedReader, path: FilePath) throws(DecoderError) {
        // Opening reads the headers and, the file being seekable, the last page and
        // every link boundary: valid data without audio, so only the time budget.
        reader.begin(positioning: true)
        var code: Int32 = 0
        let source = OggSource(reader)
        let file = withUnsafePointer(to: opusCallbacks) {
            op_open_callbacks(Unmanaged.passUnretained(source).toOpaque(), $0, nil, 0, &code)
        }
        guard let file else {
            throw DecoderError(
                path: path, reason: reader.openFailureReason(searchingFor: "Opus audio") ?? Self.message(code))
        }
        let channels = Int(op_channel_count(file, 0))
        guard channels > 0 && channels <= Self.maximumChannels else {
            op_free(file)
            throw DecoderError(path: path, reason: "\(channels) channels (qplay plays up to \(Self.maximumChannels))")
        }
        self.format = AudioFormat(sampleRate: Self.sampleRate, channels: channels)
        self.channelOrder = VorbisChannelOrder.waveOrder(channels: self.format.channels)
        (self.frameCount, self.nextChannels) = Self.playableFrames(file, channels: channels)
        self.file = file
        self.path = path
        self.reader = reader
        self.source = source
    }

    deinit {
        op_free(file)
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
        if remaining == 0, let nextChannels { throw formatChange(to: nextChannels) }
        let wholeFrames = min(buffer.count / format.channels, remaining)
        let filled = try staging.decode(
            into: buffer, count: wholeFrames * format.channels, converting: Int32.init(roundingTo16Bits:), reordering: channelOrder
        ) { samples throws(DecoderError) in try readFloats(into: samples) }
        framePosition += filled / format.channels
        return filled
    }

    /// Fills `buffer` (whole frames long) with whole frames; throws only when it has none.
    private func readFloats(into buffer: UnsafeMutableBufferPointer<Float>) throws(DecoderError) -> Int {
        if let pendingFailure {
            self.pendingFailure = nil
            throw pendingFailure
        }
        let channels = format.channels
        var filled = 0
        reader.begin()
        while filled < buffer.count {
            var section: Int32 = 0
            // One packet at most (120 ms), so the budgets start again between calls
            // that make audio.
            let result = op_read_float(
                file, buffer.baseAddress! + filled, Int32(truncatingIfNeeded: buffer.count - filled), &section)
            if result > 0 {
                if section != link, Int(op_channel_count(file, section)) != channels {
                    // The samples of the other layout are dropped; the file ends here.
                    pendingFailure = formatChange(to: Int(op_channel_count(file, section)))
                    break
                }
                link = section
                filled += Int(result) * channels
                reader.audioArrived()
            } else if result == 0 {
                if reader.problem != nil { pendingFailure = failure(OP_EREAD) }
                break
            } else if result == OP_HOLE {
                // A damaged or missing page: skipped, as players do. Each hole reads
                // on, so the junk budget ends a file of nothing else.
                continue
            } else {
                pendingFailure = failure(result)
                break
            }
        }
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
        // libopusfile pre-rolls the 80 ms the Opus spec asks for, but the decoder's
        // state takes longer to settle: straight after a seek the samples differed from
        // a continuous decode's by up to 2,500 LSB (a 96 kb/s sweep), fading out over
        // 200 ms. Starting `settling` earlier and decoding that part unheard gives what
        // a continuous decode gives there, within 1 LSB. It also makes a seek to the
        // very end possible (libopusfile refuses the end itself as a target).
        let start = max(0, target - Self.settling)
        // Bisecting for the page and decoding unheard produce no audio for us: only
        // the time budget.
        reader.begin(positioning: true)
        guard target > 0 || frameCount != 0 else {
            framePosition = 0
            return
        }
        let result = op_pcm_seek(file, Int64(start))
        if result != 0 { throw failure(result, seeking: true) }
        let channels = format.channels
        var left = (target - start) * channels
        while left > 0 {
            let frames = staging.discard(count: min(left, Self.settling * channels)) { samples in
                op_read_float(file, samples.baseAddress!, Int32(truncatingIfNeeded: samples.count), nil)
            }
            if frames == OP_HOLE { continue }
            if frames < 0 { throw failure(frames, seeking: true) }
            if frames == 0 { break }
            left -= Int(frames) * channels
        }
        framePosition = target
    }

    /// How much before a seek's target decoding starts (on top of libopusfile's own
    /// 80 ms), for the decoder's state to settle: 250 ms.
    static let settling = 12_000

    /// The frames of the links that play — those up to the first of another channel
    /// count — and that link's channel count.
    private static func playableFrames(_ file: OpaquePointer, channels: Int) -> (frames: Int?, next: Int?) {
        var total = 0
        for link in 0..<op_link_count(file) {
            let linkChannels = Int(op_channel_count(file, link))
            guard linkChannels == channels else { return (total, linkChannels) }
            let frames = op_pcm_total(file, link)
            guard frames >= 0 else { return (nil, nil) }
            total += Int(frames)
        }
        return (total, nil)
    }

    private func formatChange(to channels: Int) -> DecoderError {
        DecoderError(
            path: path, atFrame: framePosition, sampleRate: format.sampleRate,
            "format changes within the file (to \(channels) ch)")
    }

    /// A failure after opening, placed at the last frame decoded.
    private func failure(_ code: Int32, seeking: Bool = false) -> DecoderError {
        DecoderError(
            path: path, atFrame: framePosition, sampleRate: format.sampleRate,
            reader.failureReason(seeking: seeking) ?? Self.message(code))
    }

    /// libopusfile's codes in words.
    static func message(_ code: Int32) -> String {
        switch code {
        case OP_HOLE: "hole in the data (a damaged page)"
        case OP_EREAD: "read error"
        case OP_EFAULT: "internal error in libopusfile"
        case OP_EIMPL: "an Opus feature libopusfile does not implement"
        case OP_EINVAL: "damaged Opus stream"
        case OP_ENOTFORMAT: "not Ogg Opus"
        case OP_EBADHEADER: "bad Opus header"
        case OP_EVERSION: "unsupported Opus version"
        case OP_ENOTAUDIO: "not audio"
        case OP_EBADPACKET: "bad packet"
        case OP_EBADLINK: "damaged link in the stream"
        case OP_ENOSEEK: "the file is not seekable"
        case OP_EBADTIMESTAMP: "bad timestamp in the stream"
        default: "libopusfile error \(code)"
        }
    }
}

/// libopusfile's I/O on an `OggSource` (the stream, unretained).
private let opusCallbacks = OpusFileCallbacks(
    read: { source, destination, count in
        guard let source, let destination else { return -1 }
        return Int32(
            truncatingIfNeeded: Unmanaged<OggSource>.fromOpaque(source).takeUnretainedValue()
                .read(into: destination, count: Int(count)))
    },
    seek: { source, offset, whence in
        guard let source else { return -1 }
        let stream = Unmanaged<OggSource>.fromOpaque(source).takeUnretainedValue()
        return stream.seek(offset: Int(offset), whence: whence) < 0 ? -1 : 0
    },
    tell: { source in
        guard let source else { return -1 }
        return Int64(Unmanaged<OggSource>.fromOpaque(source).takeUnretainedValue().position)
    },
    close: nil)

/// Opus in Ogg, through libopusfile.
struct OpusFormat: FormatDecoder {
    var format: AudioFileFormat { .opus }

    func open(_ reader: BudgetedReader, path: FilePath) throws(DecoderError) -> any AudioDecoder {
        try OpusDecoder(reader: reader, path: path)
    }
}
