import QPlayModel

/// A stream's bytes as the stream decoders take them: its first bytes, read once to
/// recognise the format (`head`), handed out again before the rest, which comes from
/// the `StreamInput`'s bounded buffer. The libraries' read callbacks (libvorbisfile,
/// libopusfile) read through `read(into:count:)`, which waits for the network only
/// while `waitingUntil` is set — while a decoder opens, on the opener's thread — and
/// never on the audio thread: there it gives 0 for "nothing now", and `ended` tells
/// that apart from the end.
///
/// Used by one thread at a time (the opener's, then the audio thread), as the decoder
/// that holds it is.
final class StreamFeed: StreamInput, @unchecked Sendable {
    let input: any StreamInput
    /// The stream's first bytes (up to `AudioFileFormat.headLength`).
    let head: [UInt8]
    private var headOffset = 0
    /// While set, an empty buffer is waited for up to this instant (opening only).
    var waitingUntil: ContinuousClock.Instant?
    /// Set once the input said the stream is over: nil inside when the server ended it,
    /// otherwise why it broke off.
    private(set) var ended: String??
    /// The last read found the buffer empty (and the stream not over).
    private(set) var starved = false

    /// Reads the head, waiting for it up to `deadline`.
    init(_ input: any StreamInput, until deadline: ContinuousClock.Instant) {
        self.input = input
        var head = [UInt8](repeating: 0, count: AudioFileFormat.headLength)
        var filled = 0
        reading: while filled < head.count {
            let read = head.withUnsafeMutableBytes {
                input.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
            }
            switch read {
            case .bytes(let count): filled += count
            case .empty:
                guard ContinuousClock.now < deadline else { break reading }
                input.waitForBytes(head.count - filled, until: deadline)
            case .ended(let why):
                ended = .some(why)
                break reading
            }
        }
        self.head = Array(head[..<filled])
    }

    var contentType: String? { input.contentType }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamInputRead {
        guard let base = buffer.baseAddress else { return .empty }
        let count = read(into: base, count: buffer.count)
        if count > 0 { return .bytes(count) }
        if let ended { return .ended(ended) }
        return .empty
    }

    /// Up to `count` bytes into `destination`; 0 when none are buffered now (`starved`)
    /// or the stream is over (`ended`).
    func read(into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        starved = false
        guard count > 0 else { return 0 }
        if headOffset < head.count {
            let taken = min(count, head.count - headOffset)
            head.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress! + headOffset, byteCount: taken) }
            headOffset += taken
            return taken
        }
        guard ended == nil else { return 0 }
        while true {
            switch input.read(into: UnsafeMutableRawBufferPointer(start: destination, count: count)) {
            case .bytes(let got):
                return got
            case .empty:
                guard let deadline = waitingUntil, ContinuousClock.now < deadline else {
                    starved = true
                    return 0
                }
                input.waitForBytes(1, until: deadline)
            case .ended(let why):
                ended = .some(why)
                return 0
            }
        }
    }

    func waitForBytes(_ count: Int, until deadline: ContinuousClock.Instant) {
        if head.count - headOffset >= count { return }
        input.waitForBytes(count - (head.count - headOffset), until: deadline)
    }

    func decoding(_ format: AudioFileFormat, audio: AudioFormat, bitrateKbps: Int?) {
        input.decoding(format, audio: audio, bitrateKbps: bitrateKbps)
    }

    func close() {
        input.close()
    }
}
