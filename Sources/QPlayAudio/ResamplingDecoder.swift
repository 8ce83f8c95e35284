import CSoxr
import QPlayModel
import SystemPackage

/// Presents any decoder in the fixed format of a `file:`/`pipe:` output: channels mapped
/// first (`ChannelMapper`), then the rate converted by libsoxr at its "high quality"
/// recipe (`SOXR_HQ`: 20-bit precision, linear phase, pass band to 91 % of Nyquist; what
/// MPD uses by default), so content above the target's Nyquist frequency is filtered
/// instead of folding back as aliases. One thread, like MPD: the audio thread stays the
/// only one working on audio.
///
/// Frame accounting is exact: a whole decode gives round(source frames × ratio) frames.
/// libsoxr keeps its filter's delay to itself (the output starts at the input's first
/// instant), is flushed at the end of the source, and the rest is cut or padded to that
/// length. A seek moves the source to the matching frame and clears libsoxr, so it lands
/// where asked to within a frame of the source.
///
/// Resampled samples leave with 20 significant bits (soxr's precision), mixed-down ones
/// with 24: the output narrowing them to 16 bits dithers instead of truncating what the
/// filter or the mix produced. Mono copied to both sides keeps the source's bits (and
/// stays bit-exact).
public final class ResamplingDecoder: AudioDecoder {
    public let format: AudioFormat
    /// The decoder of the file, in its own format.
    public let source: any AudioDecoder
    private let path: FilePath
    private let mapper: ChannelMapper
    /// nil when only the channel count changes.
    private let resampler: soxr_t?
    private let ratio: Double
    /// Frames read from `source` per call; the buffers below hold that many.
    private static let sourceFramesPerRead = 2048
    private var sourceSamples: [Int32]
    /// Mapped frames waiting for libsoxr: `pendingStart..<pendingEnd`.
    private var mapped: [Int32]
    private var pendingStart = 0
    private var pendingEnd = 0
    /// The source frame after the last one read.
    private var sourceFrame = 0
    private var position = 0
    /// The output frame the stream ends at, once the source has ended.
    private var endFrame: Int?
    private var sourceEnded = false
    /// A source failure that came after some audio of the same read: thrown next.
    private var pendingError: DecoderError?

    /// Significant bits of converted samples: libsoxr's `SOXR_HQ` precision.
    static let convertedBits = 20
    /// Of mixed channels at the source's rate: more than any source's, so the output
    /// dithers the fractions a mix-down leaves below the source's step.
    static let mixedBits = 24

    public init(_ source: any AudioDecoder, to target: AudioFormat, path: FilePath) throws(DecoderError) {
        self.source = source
        self.path = path
        mapper = ChannelMapper(from: source.format.channels, to: target.channels)
        ratio = Double(target.sampleRate) / Double(source.format.sampleRate)
        let resampling = target.sampleRate != source.format.sampleRate
        format = AudioFormat(
            sampleRate: target.sampleRate, channels: target.channels,
            bits: resampling ? Self.convertedBits : mapper.copiesSamples ? source.format.bits : Self.mixedBits)
        sourceSamples = [Int32](repeating: 0, count: Self.sourceFramesPerRead * source.format.channels)
        mapped = [Int32](repeating: 0, count: Self.sourceFramesPerRead * target.channels)
        if resampling {
            var error: soxr_error_t?
            var io = soxr_io_spec(SOXR_INT32_I, SOXR_INT32_I)
            var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
            var runtime = soxr_runtime_spec(1)
            let created = soxr_create(
                Double(source.format.sampleRate), Double(target.sampleRate), UInt32(target.channels), &error,
                &io, &quality, &runtime)
            guard let created, error == nil else {
                soxr_delete(created)
                throw DecoderError(
                    path: path,
                    reason: "cannot convert \(source.format) to \(target): \(error.map { String(cString: $0) } ?? "libsoxr failed")")
            }
            resampler = created
        } else {
            resampler = nil
        }
        sourceFrame = source.framePosition
        position = outputFrame(sourceFrame)
    }

    deinit {
        soxr_delete(resampler)
    }

    public var frameCount: Int? { source.frameCount.map(outputFrame) }
    public var chapters: [Chapter] { source.chapters }
    public var framePosition: Int { position }

    private func outputFrame(_ sourceFrame: Int) -> Int { Int((Double(sourceFrame) * ratio).rounded()) }

    public func read(into buffer: UnsafeMutableBufferPointer<Int32>) throws(DecoderError) -> Int {
        if let pendingError {
            self.pendingError = nil
            throw pendingError
        }
        let channels = format.channels
        var wanted = buffer.count / channels
        var produced = 0
        while produced < wanted {
            if let endFrame {
                wanted = min(wanted, produced + max(0, endFrame - position))
                if produced >= wanted { break }
            }
            if pendingStart == pendingEnd && !sourceEnded {
                do {
                    try refill()
                } catch {
                    if produced > 0 {
                        pendingError = error
                        break
                    }
                    throw error
                }
                continue
            }
            let output = buffer.baseAddress! + produced * channels
            let room = wanted - produced
            let done: Int
            if let resampler {
                done = try process(resampler, into: output, room: room)
                if done == 0 && sourceEnded && pendingStart == pendingEnd {
                    // Flushed: pad a stream the filter left short to its exact length.
                    let missing = min(room, max(0, (endFrame ?? position) - position))
                    output.update(repeating: 0, count: missing * channels)
                    produced += missing
                    position += missing
                    break
                }
            } else {
                done = min(room, pendingEnd - pendingStart)
                if done == 0 { break }  // the source ended
                mapped.withUnsafeBufferPointer { mapped in
                    output.update(from: mapped.baseAddress! + pendingStart * channels, count: done * channels)
                }
                pendingStart += done
            }
            produced += done
            position += done
        }
        return produced * channels
    }

    /// One call into libsoxr: pending input in (none: flush), up to `room` frames out.
    private func process(_ resampler: soxr_t, into output: UnsafeMutablePointer<Int32>, room: Int) throws(DecoderError) -> Int {
        var consumed = 0
        var done = 0
        let pending = pendingEnd - pendingStart
        let error = mapped.withUnsafeBufferPointer { mapped in
            soxr_process(
                resampler, pending > 0 ? mapped.baseAddress! + pendingStart * format.channels : nil, pending,
                &consumed, output, room, &done)
        }
        if let error {
            throw DecoderError(path: path, reason: "resampler error: \(String(cString: error))")
        }
        pendingStart += consumed
        return done
    }

    /// Reads the next frames of the source and maps their channels.
    private func refill() throws(DecoderError) {
        let count = try sourceSamples.withUnsafeMutableBufferPointer { samples throws(DecoderError) in
            try source.read(into: samples)
        }
        let frames = count / source.format.channels
        if frames == 0 {
            sourceEnded = true
            endFrame = outputFrame(sourceFrame)
            return
        }
        sourceFrame += frames
        sourceSamples.withUnsafeBufferPointer { samples in
            mapped.withUnsafeMutableBufferPointer { mapped in
                mapper.map(samples.baseAddress!, frames: frames, into: mapped.baseAddress!)
            }
        }
        pendingStart = 0
        pendingEnd = frames
    }

    public func seek(toFrame frame: Int) throws(DecoderError) {
        let target = max(0, frameCount.map { min(frame, $0) } ?? frame)
        // Clamped far below where the conversion would trap (a seek past an unknown end).
        try source.seek(toFrame: Int(min((Double(target) / ratio).rounded(), Double(Int.max / 4))))
        if let resampler { soxr_clear(resampler) }
        sourceFrame = source.framePosition
        position = target
        pendingStart = 0
        pendingEnd = 0
        endFrame = nil
        sourceEnded = false
        pendingError = nil
    }
}
