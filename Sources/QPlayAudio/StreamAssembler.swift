/// The decode side of the audio thread: puts together the one stream the output plays
/// from the current item and its successor. It decodes ahead into the buffer, joins the
/// successor's audio right after the current item's last frame, marks where an item ends
/// or fails (so events go out when the output gets there, not when the decoder ran
/// ahead), jumps for scanning, and rewinds to the write head when what was decoded ahead
/// no longer holds. When the write head reaches the successor it becomes the current
/// item. Modes and commands are the loop's: it calls in here only when the stream is
/// to change.
///
/// On the audio thread alone, like the decoders it owns.
final class StreamAssembler {
    private let tuning: PlaybackTuning
    /// The item at the write head, or about to be (after `play`, before its first write).
    private(set) var current: DecodingSource?
    private(set) var successor: Successor?
    /// The current item is decoded to its end and the successor's audio follows it in
    /// the buffer.
    private(set) var decodingSuccessor = false
    private(set) var buffer = PlaybackBuffer()
    /// The item `started` was sent for; a chunk of another item starts it.
    private var announced: UInt64?
    private(set) var scan: ScanCursor?
    /// Sample storage of chunks already written, reused for the next decoded ones: no
    /// allocation (and no zeroing) per chunk while playing.
    private var spareStorage: [[Int32]] = []

    init(tuning: PlaybackTuning) {
        self.tuning = tuning
    }

    /// The current item is decoded to its end, and what follows it waits for the
    /// successor being opened.
    var awaitsSuccessor: Bool { !decodingSuccessor && current?.exhausted == true }

    // MARK: changes from commands

    /// Playback of `source` begins where its decoder stands.
    func begin(_ source: DecodingSource) {
        source.writtenFrame = source.nextFrame
        current = source
    }

    /// Everything goes: items, what was decoded ahead, scanning.
    func forget() {
        buffer.clear()
        current = nil
        announced = nil
        successor = nil
        decodingSuccessor = false
        scan = nil
    }

    /// The current item has been played out.
    func endCurrent() {
        current = nil
    }

    /// A new successor, being opened until `until`, or none: whatever of the old one was
    /// decoded ahead goes, and so does an `end` mark for the current item — the stream
    /// after it is decided again.
    func replaceSuccessor(with item: PlaybackItem?, until: ContinuousClock.Instant) {
        let keep = current?.token
        buffer.removeAll { entry in
            if case .end = entry { return true }
            return entry.token != keep
        }
        successor = nil
        decodingSuccessor = false
        if let item { successor = .opening(item, until: until) }
    }

    /// The successor's decoder from the opener: false when `opened` is not for it.
    func successorOpened(_ opened: OpenedDecoder) -> Bool {
        guard case .opening(let item, _)? = successor, item.token == opened.token else { return false }
        switch opened.result {
        case .success(let decoder): successor = .ready(DecodingSource(item: item, decoder: decoder))
        case .failure(let error): successor = .failed(item, reason: error.reason)
        }
        return true
    }

    /// The successor was not opened in time: the stream goes on with its failure.
    func successorNotOpened(reason: String) {
        guard let item = successor?.item else { return }
        successor = .failed(item, reason: reason)
        continueAfterCurrent()
    }

    /// Moves the current item to `frame`, dropping what was decoded ahead.
    func seek(toFrame frame: Int) {
        guard let current else { return }
        rewindSuccessor()
        buffer.clear()
        scan?.restart()
        do {
            try current.seek(toFrame: frame)
        } catch {
            current.exhausted = true
            buffer.append(.failed(token: current.token, reason: error.reason))
            return
        }
        current.writtenFrame = current.nextFrame
    }

    func startScan(_ cursor: ScanCursor) {
        scan = cursor
    }

    /// False when not scanning.
    func endScan() -> Bool {
        guard scan != nil else { return false }
        scan = nil
        return true
    }

    /// Scanning starts or ends: what was decoded ahead goes, and decoding resumes right
    /// after the last frame handed to the output (the device keeps what it has).
    func rewindToWriteHead() {
        guard let current else { return }
        rewindSuccessor()
        buffer.removeAll { if case .failed = $0 { false } else { true } }
        scan?.restart()
        do {
            try current.seek(toFrame: current.writtenFrame)
        } catch {
            current.exhausted = true
            buffer.append(.failed(token: current.token, reason: error.reason))
        }
    }

    // MARK: the write head

    /// The mark at the head of the buffer was acted on.
    func dropFirst() {
        buffer.removeFirst()
    }

    /// The first `count` entries (audio) went to the output: the write head moves past
    /// them, onto the successor when it reaches it. Answers the items whose first
    /// sample was among them (for `started`).
    func handedOut(_ count: Int) -> [UInt64] {
        var started: [UInt64] = []
        for _ in 0..<count {
            guard case .audio(let chunk)? = buffer.first else { break }
            buffer.removeFirst()
            if spareStorage.count < Self.spareLimit { spareStorage.append(chunk.samples) }
            if chunk.token != announced, case .ready(let next)? = successor, next.token == chunk.token {
                // The write head reached the successor: it is the current item from here.
                current = next
                successor = nil
                decodingSuccessor = false
            }
            current?.writtenFrame = chunk.startFrame + chunk.frames
            if chunk.token != announced {
                announced = chunk.token
                started.append(chunk.token)
            }
        }
        return started
    }

    // MARK: decoding ahead

    /// Decodes until the buffer holds `decodeAhead` or nothing is left to decode.
    func fill() {
        while let source = decodeHead {
            let chunkFrames = tuning.frames(tuning.chunk, rate: source.format.sampleRate)
            let aheadChunks = max(2, Int(tuning.decodeAhead / tuning.chunk))
            guard buffer.audioChunks < aheadChunks else { return }
            let frames = min(chunkFrames, scan?.framesUntilJump ?? .max)
            var samples = spareStorage.popLast() ?? []
            let wanted = frames * source.format.channels
            if samples.count > wanted { samples.removeLast(samples.count - wanted) }
            if samples.count < wanted { samples.append(contentsOf: repeatElement(0, count: wanted - samples.count)) }
            let count: Int
            do {
                count = try samples.withUnsafeMutableBufferPointer { try source.decoder.read(into: $0) }
            } catch {
                // The write side ends the stream at this mark: nothing after it is decoded.
                source.exhausted = true
                buffer.append(.failed(token: source.token, reason: (error as? DecoderError)?.reason ?? "\(error)"))
                return
            }
            if count == 0 {
                source.exhausted = true
                if !source.decodedAudio && source.nextFrame == 0 {
                    // An item with no audio would never be announced as started, and its
                    // end would be taken for the end of the one before it.
                    buffer.append(.failed(token: source.token, reason: "no audio in the file"))
                    return
                }
                if decodingSuccessor {
                    buffer.append(.end(token: source.token))
                } else {
                    continueAfterCurrent()
                }
                continue
            }
            if count < samples.count { samples.removeLast(samples.count - count) }
            source.decodedAudio = true
            let decoded = count / source.format.channels
            buffer.append(
                .audio(
                    AudioChunk(
                        token: source.token, format: source.format, startFrame: source.nextFrame, samples: samples,
                        gain: source.gain)))
            source.nextFrame += decoded
            if let target = scan?.advance(by: decoded, nextFrame: source.nextFrame) {
                do {
                    try source.seek(toFrame: target)
                } catch {
                    source.exhausted = true
                    buffer.append(.failed(token: source.token, reason: error.reason))
                }
            }
        }
    }

    /// Enough for the chunks of one write and some.
    private static let spareLimit = 16

    /// The source the next decoded chunk comes from.
    private var decodeHead: DecodingSource? {
        if decodingSuccessor {
            if case .ready(let next)? = successor, !next.exhausted { return next }
            return nil
        }
        guard let current, !current.exhausted else { return nil }
        return current
    }

    /// The current item is decoded to its end (or failed, or is gone): what follows it
    /// in the stream is the successor, its failure, or the end.
    func continueAfterCurrent() {
        switch successor {
        case .ready?:
            decodingSuccessor = true
            scan?.restart()
        case .failed(let item, let reason)?:
            buffer.append(.failed(token: item.token, reason: reason))
            successor = nil
        case .opening?:
            break  // continued when the opener delivers it
        case nil:
            if let current { buffer.append(.end(token: current.token)) }
        }
    }

    /// A successor decoded ahead goes back to its start.
    private func rewindSuccessor() {
        if decodingSuccessor, case .ready(let next)? = successor, next.token != announced {
            do {
                try next.seek(toFrame: 0)
            } catch {
                successor = .failed(next.item, reason: error.reason)
            }
        }
        decodingSuccessor = false
    }
}
