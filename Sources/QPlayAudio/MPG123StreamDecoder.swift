import CMPG123
import QPlayModel
import SystemPackage

/// An MP3 stream (internet radio) through libmpg123's feed API: the bytes come from a
/// `StreamInput` that the network fills off the audio thread, and `read` never waits
/// for them. When the buffer runs dry the decoder hands out a short stretch of silence
/// rather than ending, so the output keeps its clock and the stream goes on when bytes
/// come back; it ends only when the stream does. Live: no length, no seeking.
final class MPG123StreamDecoder: AudioDecoder {
    let format: AudioFormat
    var frameCount: Int? { nil }
    private(set) var framePosition = 0
    private let handle: OpaquePointer
    private let input: any StreamInput
    private let path: FilePath
    private var scratch = [UInt8](repeating: 0, count: 16 * 1024)
    private var shorts: [Int16] = []
    /// Samples of a frame a read could not finish (fewer samples than channels).
    private var carried: [Int16] = []
    private var ended = false

    /// Feeds the stream to libmpg123 until it knows the format (waiting for the network
    /// here, on the opener's thread, up to `deadline`).
    /// The bit rate of the last frame decoded, as its header states it (what MPD shows
    /// for a stream).
    var bitrateKbps: Int? {
        var info = mpg123_frameinfo2()
        return mpg123_info2(handle, &info) == MPG123_OK.rawValue && info.bitrate > 0 ? Int(info.bitrate) : nil
    }

    init(input: any StreamInput, path: FilePath, until deadline: ContinuousClock.Instant) throws(DecoderError) {
        let handle = try MPG123Handle.make(flags: Int(MPG123_QUIET.rawValue | MPG123_SKIP_ID3V2.rawValue), path: path)
        do throws(DecoderError) {
            try MPG123Handle.check(mpg123_open_feed(handle), handle, path)
            var rate = 0
            var channels: Int32 = 0
            var actual: Int32 = 0
            var fed = 0
            while true {
                let result = mpg123_getformat(handle, &rate, &channels, &actual)
                if result == Int32(MPG123_OK.rawValue) { break }
                guard result == Int32(MPG123_NEED_MORE.rawValue) else {
                    throw DecoderError(path: path, reason: MPG123Handle.message(result, handle))
                }
                // No MP3 frame in this much: the server's "audio" is something else.
                guard fed < 256 * 1024 else { throw DecoderError(path: path, reason: "no MPEG audio in the stream") }
                var scratch = [UInt8](repeating: 0, count: 4096)
                let read = scratch.withUnsafeMutableBytes { input.read(into: $0) }
                switch read {
                case .bytes(let count):
                    fed += count
                    try MPG123Handle.check(mpg123_feed(handle, scratch, count), handle, path)
                case .empty:
                    guard ContinuousClock.now < deadline else {
                        throw DecoderError(path: path, reason: "no audio arrived in time")
                    }
                    input.waitForBytes(1, until: deadline)
                case .ended(let why):
                    throw DecoderError(path: path, reason: why ?? "the stream ended before any audio")
                }
            }
            guard actual == MPG123Handle.encoding, channels == 1 || channels == 2, rate > 0 else {
                throw DecoderError(path: path, reason: "unexpected output format from libmpg123")
            }
            format = AudioFormat(sampleRate: rate, channels: Int(channels))
        } catch {
            mpg123_delete(handle)
            throw error
        }
        self.handle = handle
        self.input = input
        self.path = path
    }

    deinit {
        mpg123_delete(handle)
        input.close()
    }

    func read(into buffer: UnsafeMutableBufferPointer<Int32>) throws(DecoderError) -> Int {
        let wholeFrames = buffer.count - buffer.count % format.channels
        guard wholeFrames > 0, !ended || !carried.isEmpty else { return 0 }
        if shorts.count < wholeFrames { shorts = [Int16](repeating: 0, count: wholeFrames) }
        var filled = 0
        for sample in carried.prefix(wholeFrames) {
            shorts[filled] = sample
            filled += 1
        }
        carried.removeFirst(filled)
        var starved = false
        decoding: while filled < wholeFrames && !ended {
            var done = 0
            let result = shorts.withUnsafeMutableBufferPointer { shorts in
                mpg123_read(handle, shorts.baseAddress! + filled, (wholeFrames - filled) * 2, &done)
            }
            filled += done / 2
            switch result {
            case Int32(MPG123_OK.rawValue):
                continue
            case Int32(MPG123_NEW_FORMAT.rawValue):
                guard MPG123Handle.keeps(format, handle) else {
                    throw DecoderError(path: path, reason: "the stream changed its format")
                }
            case Int32(MPG123_NEED_MORE.rawValue):
                let read = scratch.withUnsafeMutableBytes { input.read(into: $0) }
                switch read {
                case .bytes(let count):
                    mpg123_feed(handle, scratch, count)
                case .empty:
                    starved = true
                    break decoding
                case .ended(let why):
                    ended = true
                    if let why, filled == 0 { throw DecoderError(path: path, reason: why) }
                }
            default:
                throw DecoderError(path: path, reason: MPG123Handle.message(result, handle))
            }
        }
        if starved && filled == 0 {
            // Silence while the network catches up: at most 20 ms a call, so the output
            // asks again soon.
            filled = min(wholeFrames, format.sampleRate / 50 * format.channels)
            for index in 0..<filled { shorts[index] = 0 }
        }
        let whole = filled - filled % format.channels
        carried.append(contentsOf: shorts[whole..<filled])
        for index in 0..<whole { buffer[index] = Int32(leftJustifying: shorts[index]) }
        framePosition += whole / format.channels
        return whole
    }

    /// Live: there is nowhere to move to. The daemon refuses seeks on streams; a resumed
    /// position (a restart) plays from now.
    func seek(toFrame frame: Int) throws(DecoderError) {}
}
