import CFLAC
import QPlayModel
import SystemPackage

/// FLAC through libFLAC's stream decoder: lossless, so the samples are the file's own,
/// at its depth (8 to 32 bits, left-justified to the pipeline's 32; `format.bits` says
/// which), any channel count FLAC allows. The length is STREAMINFO's exact sample
/// count; seeking is sample-accurate (`FLAC__stream_decoder_seek_absolute`).
///
/// The file is read through a `BudgetedReader` with libFLAC's callbacks (see
/// `FLACFrameSink`). Metadata — tags, seek table, cover art of megabytes, a leading
/// ID3v2 tag libFLAC skips itself — is not junk: opening, like seeking, is held to the
/// time budget only. From the first frame on, a stream that loses sync gets the junk
/// budget as an MP3 does. A damaged frame (CRC mismatch) plays as silence of its length,
/// so the timeline stays whole; junk between frames is skipped within the budget.
public final class FLACDecoder: AudioDecoder {
    public let format: AudioFormat
    public let frameCount: Int?
    private let handle: UnsafeMutablePointer<FLAC__StreamDecoder>
    private let path: FilePath
    /// Referenced by `handle` (unretained) and outlives it: deinit deletes the handle first.
    private let sink: FLACFrameSink
    /// A seek to the end: reads give nothing until the next seek.
    private var atEnd = false

    public convenience init(path: FilePath) throws(DecoderError) {
        try self.init(reader: try BudgetedReader(opening: path), path: path)
    }

    init(reader: BudgetedReader, path: FilePath) throws(DecoderError) {
        guard let handle = FLAC__stream_decoder_new() else {
            throw DecoderError(path: path, reason: "libFLAC could not allocate a decoder")
        }
        let sink = FLACFrameSink(reader: reader)
        // Every failure below deletes the handle before any stored property is set, so
        // deinit (which also deletes it) cannot run for a half-made decoder.
        do throws(DecoderError) {
            let status = sink.initialize(handle)
            guard status == FLAC__STREAM_DECODER_INIT_STATUS_OK else {
                throw DecoderError(path: path, reason: "libFLAC could not start (init status \(status.rawValue))")
            }
            reader.begin(positioning: true)
            let read = FLAC__stream_decoder_process_until_end_of_metadata(handle) != 0
            let state = FLAC__stream_decoder_get_state(handle)
            guard read, state != FLAC__STREAM_DECODER_ABORTED, let info = sink.streamInfo else {
                throw Self.openFailure(sink, path)
            }
            let format = AudioFormat(
                sampleRate: Int(info.sample_rate), channels: Int(info.channels), bits: Int(info.bits_per_sample))
            guard (1...8).contains(format.channels), (4...32).contains(format.bits), format.sampleRate > 0 else {
                throw DecoderError(path: path, reason: "unsupported FLAC stream (\(format))")
            }
            sink.expect(format, largestBlock: Int(info.max_blocksize))
            // Room for two of the largest frames STREAMINFO allows (stored uncompressed,
            // as noise is) and libFLAC's read-ahead, before the lack of audio is junk.
            let largestFrame = Int(info.max_blocksize) * format.channels * format.bits / 8
            reader.allowJunk(upTo: 2 * largestFrame + 64 * 1024)
            self.format = format
            self.frameCount = info.total_samples > 0 ? Int(clamping: info.total_samples) : nil
        } catch {
            FLAC__stream_decoder_delete(handle)
            withExtendedLifetime(sink) {}
            throw error
        }
        self.handle = handle
        self.path = path
        self.sink = sink
    }

    deinit {
        FLAC__stream_decoder_delete(handle)
    }

    public var framePosition: Int {
        max(0, sink.decodedEnd - sink.carriedCount / format.channels)
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Int32>) throws(DecoderError) -> Int {
        let wholeSamples = buffer.count - buffer.count % format.channels
        guard wholeSamples > 0, !atEnd, let base = buffer.baseAddress else { return 0 }
        // The rest of the last frame decoded comes first.
        let carried = sink.drainCarried(into: base, capacity: wholeSamples)
        if carried == wholeSamples { return carried }
        sink.reader.begin()
        sink.beginTarget(base, capacity: wholeSamples, filled: carried)
        defer { sink.endTarget() }
        while sink.targetFilled < wholeSamples && sink.carriedCount == 0 {
            let went = FLAC__stream_decoder_process_single(handle) != 0
            let state = FLAC__stream_decoder_get_state(handle)
            if state == FLAC__STREAM_DECODER_END_OF_STREAM { break }
            // libFLAC returns true in the aborted state (a callback gave up): the state
            // says whether decoding can go on.
            if !went || state.rawValue >= FLAC__STREAM_DECODER_OGG_ERROR.rawValue {
                // Hand out what decoded; the state is sticky, so the error comes with
                // the next call.
                if sink.targetFilled > 0 { return sink.targetFilled }
                throw failure()
            }
        }
        return sink.targetFilled
    }

    public func seek(toFrame frame: Int) throws(DecoderError) {
        // A new place to play from: whatever stopped reading before is forgotten.
        sink.reader.restart()
        sink.dropCarried()
        let target = max(0, frameCount.map { min(frame, $0) } ?? frame)
        if let frameCount, target >= frameCount {
            atEnd = true
            sink.decodedEnd = frameCount
            return
        }
        atEnd = false
        let state = FLAC__stream_decoder_get_state(handle)
        if state == FLAC__STREAM_DECODER_SEEK_ERROR || state == FLAC__STREAM_DECODER_ABORTED {
            FLAC__stream_decoder_flush(handle)
        }
        // Landing reads frames (a bisection without a seek table) without producing
        // audio: only the time budget.
        sink.reader.begin(positioning: true)
        guard FLAC__stream_decoder_seek_absolute(handle, UInt64(target)) != 0 else {
            let error = failure(seeking: true, target: target)
            // After a failed seek libFLAC decodes again only once flushed; where it then
            // stands is unknown until the next frame.
            FLAC__stream_decoder_flush(handle)
            sink.dropCarried()
            throw error
        }
    }

    /// Why opening failed: what stopped the reader first, else libFLAC's word.
    private static func openFailure(_ sink: FLACFrameSink, _ path: FilePath) -> DecoderError {
        let reason =
            switch sink.reader.problem {
            case .junk, .time: "no FLAC stream in the file (searched for \(BudgetedReader.timeBudgetText))"
            case .readError(let code): BudgetedReader.describe(code)
            case nil where sink.lastError != nil: "damaged FLAC metadata (\(describe(sink.lastError!)))"
            case nil: "no FLAC stream info in the file"
            }
        return DecoderError(path: path, reason: reason)
    }

    /// A failure after opening, placed at the last frame decoded ("decoder error at 1:05: …").
    private func failure(seeking: Bool = false, target: Int = 0) -> DecoderError {
        let last = sink.lastError.map { " (\(Self.describe($0)))" } ?? ""
        let what =
            switch sink.reader.problem {
            case .junk: "no audio in \(sink.reader.junkLimitText)\(last)"
            case .time where seeking: "seeking took over \(BudgetedReader.timeBudgetText)"
            case .time: "no audio within \(BudgetedReader.timeBudgetText)\(last)"
            case .readError(let code): BudgetedReader.describe(code)
            case nil where sink.formatChanged: "format changes within the file"
            case nil where seeking: "cannot seek to frame \(target)\(last)"
            case nil where FLAC__stream_decoder_get_state(handle) == FLAC__STREAM_DECODER_MEMORY_ALLOCATION_ERROR:
                "out of memory"
            case nil: sink.lastError.map(Self.describe) ?? "libFLAC stopped"
            }
        return DecoderError(path: path, atFrame: framePosition, sampleRate: format.sampleRate, what)
    }

    private static func describe(_ error: FLAC__StreamDecoderErrorStatus) -> String {
        switch error {
        case FLAC__STREAM_DECODER_ERROR_STATUS_LOST_SYNC: "lost sync"
        case FLAC__STREAM_DECODER_ERROR_STATUS_BAD_HEADER: "bad frame header"
        case FLAC__STREAM_DECODER_ERROR_STATUS_FRAME_CRC_MISMATCH: "frame CRC mismatch"
        case FLAC__STREAM_DECODER_ERROR_STATUS_UNPARSEABLE_STREAM: "unparseable stream"
        case FLAC__STREAM_DECODER_ERROR_STATUS_BAD_METADATA: "bad metadata block"
        default: "libFLAC error \(error.rawValue)"
        }
    }
}

/// FLAC in its native container, through libFLAC.
struct FLACFormat: FormatDecoder {
    var format: AudioFileFormat { .flac }

    func open(_ reader: BudgetedReader, path: FilePath) throws(DecoderError) -> any AudioDecoder {
        try FLACDecoder(reader: reader, path: path)
    }
}
