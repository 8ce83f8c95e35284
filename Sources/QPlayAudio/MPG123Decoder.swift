import CMPG123
import QPlayModel
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// MPEG layer 1/2/3 through libmpg123, gapless: encoder delay and padding are trimmed
/// when the file has a LAME/Xing header, so consecutive tracks join sample-exact.
///
/// Seeking is sample-accurate, also in VBR files: before the first seek the whole file
/// is scanned once (`mpg123_scan`, frame headers only; `scripts/bench engine` prints
/// its cost: 2–19 ms for a 2.7 MB file on the loaded 2-core test machine), which fills
/// libmpg123's frame index and makes its length exact even without a Xing/LAME header.
/// Opening does not scan, so starting a track stays as fast as possible.
///
/// The file is read through a `BudgetedReader`: only regular files are opened, and
/// junk gets a bounded search instead of an endless resync (see there).
public final class MPG123Decoder: AudioDecoder {
    public let format: AudioFormat
    public private(set) var frameCount: Int?
    /// Whether the frame index is complete (`scanIndex` ran).
    public private(set) var isIndexed = false
    private let handle: OpaquePointer
    private let path: FilePath
    /// Referenced by `handle` (unretained) and outlives it: deinit closes the handle first.
    private let reader: BudgetedReader
    /// The start of a frame a read could not finish (fewer samples than channels).
    private var carried: [Int16] = []
    /// libmpg123 decodes to 16 bits here; `read` widens from it.
    private var shorts: [Int16] = []

    /// Decodes at the file's own rate and channel count; `DecoderRegistry` wraps the
    /// decoder in a `ResamplingDecoder` for outputs of a fixed format, as every format's:
    /// libmpg123's own resampler did not return from seeks in some damaged files, and its
    /// output is not the exact length (132,298 frames for 144,000 at 48 kHz → 44.1 kHz).
    public convenience init(path: FilePath) throws(DecoderError) {
        try self.init(reader: try BudgetedReader(opening: path), path: path)
    }

    init(reader: BudgetedReader, path: FilePath) throws(DecoderError) {
        let handle = try MPG123Handle.make(
            flags: Int(MPG123_GAPLESS.rawValue | MPG123_QUIET.rawValue | MPG123_SKIP_ID3V2.rawValue), path: path)
        // Every failure below deletes the handle before any stored property is set, so
        // deinit (which also deletes it) cannot run for a half-made decoder.
        do throws(DecoderError) {
            try MPG123Handle.check(
                mpg123_replace_reader_handle(
                    handle,
                    { io, destination, count in
                        guard let io, let destination else { return -1 }
                        return Unmanaged<BudgetedReader>.fromOpaque(io).takeUnretainedValue()
                            .read(into: destination, count: count)
                    },
                    { io, offset, whence in
                        guard let io else { return -1 }
                        return Unmanaged<BudgetedReader>.fromOpaque(io).takeUnretainedValue()
                            .seek(offset: offset, whence: whence)
                    },
                    nil),
                handle, path)
            reader.begin()
            let opened = mpg123_open_handle(handle, Unmanaged.passUnretained(reader).toOpaque())
            if opened != Int32(MPG123_OK.rawValue) {
                throw Self.openFailure(opened, handle, reader, path)
            }
            var rate = 0
            var channels: Int32 = 0
            var actualEncoding: Int32 = 0
            let result = mpg123_getformat(handle, &rate, &channels, &actualEncoding)
            if result != Int32(MPG123_OK.rawValue) {
                throw Self.openFailure(result, handle, reader, path)
            }
            guard actualEncoding == MPG123Handle.encoding, channels == 1 || channels == 2, rate > 0 else {
                throw DecoderError(path: path, reason: "unexpected output format from libmpg123")
            }
            let length = mpg123_length(handle)
            self.frameCount = length >= 0 ? length : nil
            self.format = AudioFormat(sampleRate: rate, channels: Int(channels))
        } catch {
            mpg123_close(handle)
            mpg123_delete(handle)
            withExtendedLifetime(reader) {}
            throw error
        }
        self.handle = handle
        self.path = path
        self.reader = reader
    }

    deinit {
        mpg123_close(handle)
        mpg123_delete(handle)
    }

    public var framePosition: Int {
        max(0, mpg123_tell(handle))
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Int32>) throws(DecoderError) -> Int {
        if shorts.count < buffer.count { shorts = [Int16](repeating: 0, count: buffer.count) }
        let count = try shorts.withUnsafeMutableBufferPointer { shorts throws(DecoderError) in
            try readShorts(into: UnsafeMutableBufferPointer(rebasing: shorts[..<buffer.count]))
        }
        shorts.withUnsafeBufferPointer { shorts in
            for index in 0..<count { buffer[index] = Int32(leftJustifying: shorts[index]) }
        }
        return count
    }

    private func readShorts(into buffer: UnsafeMutableBufferPointer<Int16>) throws(DecoderError) -> Int {
        let wholeFrames = buffer.count - buffer.count % format.channels
        guard wholeFrames > 0 else { return 0 }
        // Samples of a frame the last call could not finish come first.
        var filled = carried.count
        for (index, sample) in carried.enumerated() { buffer[index] = sample }
        carried.removeAll(keepingCapacity: true)
        reader.begin()
        while filled < wholeFrames {
            var done = 0
            // Bounded: the budgets start again only when a call returns with audio, so
            // one call for a large buffer could otherwise read past the junk budget.
            let bytesWanted = min((wholeFrames - filled) * MemoryLayout<Int16>.size, Self.bytesPerCall)
            let result = mpg123_read(handle, buffer.baseAddress! + filled, bytesWanted, &done)
            filled += done / MemoryLayout<Int16>.size
            if done > 0 { reader.audioArrived() }
            switch result {
            case Int32(MPG123_OK.rawValue):
                continue
            case Int32(MPG123_DONE.rawValue) where reader.problem == nil:
                return wholeFramesOnly(buffer, filled)
            case Int32(MPG123_NEW_FORMAT.rawValue):
                guard MPG123Handle.keeps(format, handle) else {
                    throw DecoderError(path: path, reason: "format changes within the file")
                }
            default:
                // Hand out what decoded; the reader's problem is sticky, so the error
                // comes with the next call.
                let whole = wholeFramesOnly(buffer, filled)
                if whole > 0 { return whole }
                throw failure(result)
            }
        }
        return wholeFramesOnly(buffer, filled)
    }

    /// `filled` cut down to whole frames, the samples of a partial frame kept for the
    /// next call: libmpg123 can hand out part of a frame on a damaged stream (3,623
    /// samples of a stereo stream, found by fuzzing), which would swap the channels of
    /// everything after it. A partial frame at the very end is dropped.
    private func wholeFramesOnly(_ buffer: UnsafeMutableBufferPointer<Int16>, _ filled: Int) -> Int {
        let whole = filled - filled % format.channels
        carried.append(contentsOf: buffer[whole..<filled])
        return whole
    }

    /// Reads every frame header once: an exact length and a full seek index.
    public func scanIndex() throws(DecoderError) {
        guard !isIndexed else { return }
        // The scan reads the whole file without producing audio: only the time budget.
        reader.begin(positioning: true)
        let result = mpg123_scan(handle)
        if result != Int32(MPG123_OK.rawValue) {
            throw failure(result, seeking: true)
        }
        isIndexed = true
        let length = mpg123_length(handle)
        if length >= 0 { frameCount = length }
    }

    public func seek(toFrame frame: Int) throws(DecoderError) {
        // A new place to play from: whatever stopped reading before is forgotten.
        reader.restart()
        carried.removeAll()
        try scanIndex()
        let target = max(0, frameCount.map { min(frame, $0) } ?? frame)
        // Landing reads valid frames from the nearest index entry (far apart in long
        // files) without producing audio: only the time budget.
        reader.begin(positioning: true)
        let result = mpg123_seek(handle, target, SEEK_SET)
        if result < 0 {
            throw failure(Int32(truncatingIfNeeded: result), seeking: true)
        }
    }

    /// The output asked of one `mpg123_read` (16,384 samples): the input it reads, even
    /// at the highest bitrate per sample MPEG allows, stays far below the junk budget.
    private static let bytesPerCall = 32 * 1024

    /// Why opening failed: what stopped the reader first, else libmpg123's word.
    private static func openFailure(
        _ code: Int32, _ handle: OpaquePointer, _ reader: BudgetedReader, _ path: FilePath
    ) -> DecoderError {
        let reason =
            reader.openFailureReason(searchingFor: "MPEG audio")
            ?? (code == Int32(MPG123_DONE.rawValue) ? "no MPEG audio in the file" : MPG123Handle.message(code, handle))
        return DecoderError(path: path, reason: reason)
    }

    /// A failure after opening, placed at the last frame decoded ("decoder error at 1:05: …").
    private func failure(_ code: Int32, seeking: Bool = false) -> DecoderError {
        let what = reader.failureReason(seeking: seeking) ?? MPG123Handle.message(code, handle)
        return DecoderError(path: path, atFrame: framePosition, sampleRate: format.sampleRate, what)
    }
}

/// MPEG layer 1/2/3, through libmpg123.
struct MPG123Format: FormatDecoder {
    var format: AudioFileFormat { .mp3 }

    func open(_ reader: BudgetedReader, path: FilePath) throws(DecoderError) -> any AudioDecoder {
        try MPG123Decoder(reader: reader, path: path)
    }
}
