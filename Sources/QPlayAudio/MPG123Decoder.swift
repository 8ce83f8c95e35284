import CMPG123
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// mpg123_init is needed by libmpg123 before 1.27 and harmless after.
private let mpg123Ready: Bool = mpg123_init() == Int32(MPG123_OK.rawValue)

/// MPEG layer 1/2/3 through libmpg123, gapless: encoder delay and padding are trimmed
/// when the file has a LAME/Xing header, so consecutive tracks join sample-exact.
///
/// libmpg123 reads through `BudgetedFileReader`: only regular files, opened without
/// blocking, and a file that gives no audio within 256 KB of junk (or 1 s of decoding)
/// fails instead of being searched to its end.
///
/// Seeking is sample-accurate, also in VBR files: before the first seek the whole file
/// is scanned once (`mpg123_scan`, frame headers only; `scripts/bench engine` prints
/// its cost: 2–19 ms for a 2.7 MB file on the loaded 2-core test machine), which fills
/// libmpg123's frame index and makes its length exact even without a Xing/LAME header.
/// Opening does not scan, so starting a track stays as fast as possible.
public final class MPG123Decoder: AudioDecoder {
    public let format: AudioFormat
    public private(set) var frameCount: Int?
    /// Whether the frame index is complete (`scanIndex` ran).
    public private(set) var isIndexed = false
    private let handle: OpaquePointer
    private let path: FilePath
    /// libmpg123 holds it as its I/O handle (unretained): it lives as long as `handle`.
    private let file: BudgetedFileReader

    /// `converting`: a rate and channel count to produce instead of the file's own
    /// (libmpg123 resamples and up/down-mixes), for outputs of a fixed format.
    public init(path: FilePath, converting target: AudioFormat? = nil) throws(DecoderError) {
        guard mpg123Ready else { throw DecoderError(path: path, reason: "libmpg123 failed to initialise") }
        let file = try BudgetedFileReader(path)
        var code: Int32 = 0
        guard let handle = mpg123_new(nil, &code) else {
            throw DecoderError(path: path, reason: Self.message(code))
        }
        // Every failure below deletes the handle before any stored property is set, so
        // deinit (which also deletes it) cannot run for a half-made decoder.
        do throws(DecoderError) {
            var flags = MPG123_GAPLESS.rawValue | MPG123_QUIET.rawValue | MPG123_SKIP_ID3V2.rawValue
            if let target {
                flags |= target.channels == 1 ? MPG123_FORCE_MONO.rawValue : MPG123_FORCE_STEREO.rawValue
                // libmpg123's own N-to-M resampler: no filter bank, but no extra library.
                try Self.check(
                    mpg123_param2(handle, Int32(MPG123_FORCE_RATE.rawValue), target.sampleRate, 0), handle, path)
            }
            try Self.check(mpg123_param2(handle, Int32(MPG123_FLAGS.rawValue), Int(flags), 0), handle, path)
            // Skip junk in the middle of a file instead of stopping there.
            try Self.check(mpg123_param2(handle, Int32(MPG123_RESYNC_LIMIT.rawValue), -1, 0), handle, path)
            try Self.check(mpg123_format_none(handle), handle, path)
            let encoding = Int32(MPG123_ENC_SIGNED_16.rawValue)
            if let target {
                let layout = target.channels == 1 ? MPG123_MONO.rawValue : MPG123_STEREO.rawValue
                try Self.check(
                    mpg123_format2(handle, target.sampleRate, Int32(layout), encoding), handle, path)
            } else {
                let layouts = Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue)
                try Self.check(mpg123_format2(handle, 0, layouts, encoding), handle, path)
            }
            try Self.check(
                mpg123_replace_reader_handle(handle, readFile, seekFile, nil), handle, path)
            try Self.check(mpg123_open_handle(handle, Unmanaged.passUnretained(file).toOpaque()), handle, path)
            var rate = 0
            var channels: Int32 = 0
            var actualEncoding: Int32 = 0
            file.beginCall()
            let result = mpg123_getformat(handle, &rate, &channels, &actualEncoding)
            // libmpg123 takes a refused read for the end of the stream.
            if result != Int32(MPG123_OK.rawValue), let exceeded = file.exceeded {
                throw DecoderError(path: path, reason: "no MPEG audio: \(exceeded)")
            }
            if result == Int32(MPG123_DONE.rawValue) {
                throw DecoderError(path: path, reason: "no MPEG audio in the file")
            }
            try Self.check(result, handle, path)
            guard actualEncoding == encoding, channels == 1 || channels == 2, rate > 0 else {
                throw DecoderError(path: path, reason: "unexpected output format from libmpg123")
            }
            let length = mpg123_length(handle)
            self.frameCount = length >= 0 ? length : nil
            self.format = AudioFormat(sampleRate: rate, channels: Int(channels))
        } catch {
            mpg123_close(handle)
            mpg123_delete(handle)
            throw error
        }
        self.handle = handle
        self.path = path
        self.file = file
    }

    deinit {
        mpg123_close(handle)
        mpg123_delete(handle)
    }

    public var framePosition: Int {
        max(0, mpg123_tell(handle))
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Int16>) throws(DecoderError) -> Int {
        let wholeFrames = buffer.count - buffer.count % format.channels
        var filled = 0
        file.beginCall()
        while filled < wholeFrames {
            var done = 0
            let bytesWanted = (wholeFrames - filled) * MemoryLayout<Int16>.size
            let result = mpg123_read(handle, buffer.baseAddress! + filled, bytesWanted, &done)
            filled += done / MemoryLayout<Int16>.size
            if done > 0 { file.sawAudio() }
            switch result {
            case Int32(MPG123_OK.rawValue):
                continue
            case Int32(MPG123_DONE.rawValue):
                // A refused read looks like the end of the stream to libmpg123.
                if filled == 0, let exceeded = file.exceeded {
                    throw DecoderError(path: path, reason: "decoder error at \(positionText): \(exceeded)")
                }
                return filled
            case Int32(MPG123_NEW_FORMAT.rawValue):
                // A stream that changes format midway: the rest cannot join this one.
                try checkFormatUnchanged()
            default:
                if filled > 0 { return filled }  // hand out what decoded; the error comes next call
                throw DecoderError(path: path, reason: "decoder error at \(positionText): \(file.exceeded ?? Self.message(result, handle))")
            }
        }
        return filled
    }

    /// Reads every frame header once: an exact length and a full seek index.
    public func scanIndex() throws(DecoderError) {
        guard !isIndexed else { return }
        file.beginWholeFileRead()
        let result = mpg123_scan(handle)
        file.endWholeFileRead()
        if result != Int32(MPG123_OK.rawValue) {
            throw DecoderError(path: path, reason: "cannot seek: \(file.exceeded ?? Self.message(result, handle))")
        }
        isIndexed = true
        let length = mpg123_length(handle)
        if length >= 0 { frameCount = length }
    }

    public func seek(toFrame frame: Int) throws(DecoderError) {
        try scanIndex()
        let target = max(0, frameCount.map { min(frame, $0) } ?? frame)
        file.beginCall()
        let result = mpg123_seek(handle, target, SEEK_SET)
        if result < 0 {
            throw DecoderError(path: path, reason: Self.message(Int32(truncatingIfNeeded: result), handle))
        }
    }

    /// Where decoding stands, as `1:23`.
    private var positionText: String {
        let seconds = max(0, framePosition) / max(1, format.sampleRate)
        return "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
    }

    private func checkFormatUnchanged() throws(DecoderError) {
        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        mpg123_getformat(handle, &rate, &channels, &encoding)
        if rate != format.sampleRate || Int(channels) != format.channels {
            throw DecoderError(path: path, reason: "format changes within the file")
        }
    }

    private static func check(_ code: Int32, _ handle: OpaquePointer, _ path: FilePath) throws(DecoderError) {
        if code != Int32(MPG123_OK.rawValue) {
            throw DecoderError(path: path, reason: message(code, handle))
        }
    }

    private static func message(_ code: Int32, _ handle: OpaquePointer? = nil) -> String {
        if code == Int32(MPG123_ERR.rawValue), let handle {
            return String(cString: mpg123_strerror(handle))
        }
        return String(cString: mpg123_plain_strerror(code))
    }
}

/// libmpg123's reader callbacks: the I/O handle is the decoder's `BudgetedFileReader`.
private func readFile(_ handle: UnsafeMutableRawPointer?, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    guard let handle, let buffer else { return -1 }
    return Unmanaged<BudgetedFileReader>.fromOpaque(handle).takeUnretainedValue().read(into: buffer, count: count)
}

private func seekFile(_ handle: UnsafeMutableRawPointer?, _ offset: Int, _ whence: Int32) -> Int {
    guard let handle else { return -1 }
    return Unmanaged<BudgetedFileReader>.fromOpaque(handle).takeUnretainedValue().seek(to: offset, whence: whence)
}

/// Opens MPEG audio files with libmpg123.
public struct MPG123DecoderFactory: AudioDecoderFactory {
    public init() {}

    public var fileExtensions: Set<String> { ["mp3", "mp2", "mp1"] }

    public func open(_ path: FilePath, converting format: AudioFormat?) throws(DecoderError) -> any AudioDecoder {
        try MPG123Decoder(path: path, converting: format)
    }
}
