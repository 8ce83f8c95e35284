/// The body of the audio thread. It owns the output and every decoder it plays; a
/// decoder is opened on a thread of its own (`DecoderOpener`) and handed over once, so
/// nothing a file does can stall the output or the commands. Each turn: take the
/// commands and the opened decoders, then decode ahead and hand one chunk to the
/// output, or wait (interruptibly) for a command, an opened decoder, room in the
/// output, or the next output retry.
final class PlaybackLoop {
    private enum Mode {
        case idle
        case playing
        case paused
        /// Everything was handed out; waiting for the output to play it.
        case draining
        /// A `play` waits for its decoder (`loading`).
        case opening
    }

    /// A `play` whose decoder is being opened.
    private struct PendingPlay {
        var item: PlaybackItem
        /// Where the opener was asked to put the decoder.
        var openedAt: Double
        /// Where playback is to begin (a seek while opening moves it).
        var seconds: Double
        var paused: Bool
        /// Failed when not opened by then.
        var until: ContinuousClock.Instant
    }

    private let channel: PlaybackChannel
    private let makeOutput: @Sendable () -> any AudioOutput
    private let opener: DecoderOpener
    private let tuning: PlaybackTuning

    private var output: (any AudioOutput)?
    private var openFormat: AudioFormat?
    /// How the open output takes samples (answered by its `open`).
    private var openEncoding = SampleEncoding.s16
    private var encoder = SampleEncoder()
    private var encoded: [UInt8] = []
    private var outputPaused = false
    private var outputProblem = OutputProblem()

    private var mode = Mode.idle
    private var idleSince = ContinuousClock.now
    /// The item at the write head, or about to be (after `play`, before its first write).
    private var current: DecodingSource?
    private var loading: PendingPlay?
    /// The item `started` was sent for; a chunk of another item starts it.
    private var announced: UInt64?
    private var successor: Successor?
    /// The current item is decoded to its end and the successor's audio follows it in
    /// the buffer.
    private var decodingSuccessor = false
    private var buffer = PlaybackBuffer()
    private var handed = HandedFrames()
    private var volume = SoftwareVolume()
    private var scratch: [Int32] = []
    private var meter = LevelMeter()
    private var scan: ScanCursor?
    private var outputName = ""

    init(
        channel: PlaybackChannel, makeOutput: @escaping @Sendable () -> any AudioOutput,
        decoders: DecoderRegistry, tuning: PlaybackTuning
    ) {
        self.channel = channel
        self.makeOutput = makeOutput
        opener = DecoderOpener(decoders: decoders, channel: channel)
        self.tuning = tuning
    }

    func run() {
        let output = makeOutput()
        self.output = output
        outputName = output.name
        publish()
        while true {
            let (commands, opened, shutDown) = channel.takeCommands()
            for command in commands { handle(command) }
            for decoder in opened { received(decoder) }
            if shutDown { break }
            step(output)
        }
        // Play out what the device holds (at most its buffer) unless paused or stopped.
        if openFormat != nil {
            if mode == .playing || mode == .draining { try? output.drain() }
            output.close()
        }
        current = nil
        successor = nil
        buffer.clear()
    }

    // MARK: commands

    private func handle(_ command: AudioPlayerCommand) {
        switch command {
        case .play(let item, let seconds, let paused): play(item, from: seconds, paused: paused)
        case .setNext(let item, let after): setNext(item, after: after)
        case .pause: pause()
        case .resume: resume()
        case .stop: stop()
        case .seek(let seconds, let token): seek(to: seconds, in: token)
        case .volume(let percent): volume.set(percent: percent)
        case .fade(let factor, let seconds): volume.fade(to: factor, over: seconds)
        case .scan(let rate): startScan(rate: rate)
        case .endScan: endScan()
        }
        publish()
    }

    private func play(_ item: PlaybackItem, from seconds: Double, paused: Bool) {
        // A fully handed-out item (draining) is let play to its end: the new one follows
        // it without a cut. Anything still playing is cut now.
        if mode == .playing || mode == .paused { discardOutput() }
        forgetItems()
        loading = PendingPlay(
            item: item, openedAt: seconds, seconds: seconds, paused: paused, until: .now + tuning.openLimit)
        opener.open(item, converting: output?.requiredFormat, at: seconds)
        mode = .opening
    }

    /// A decoder from the opener: the pending `play`'s, the successor's, or one that a
    /// later command made stale (dropped, and so freed, here).
    private func received(_ opened: OpenedDecoder) {
        if let loading, loading.item.token == opened.token {
            self.loading = nil
            switch opened.result {
            case .success(let decoder):
                let source = DecodingSource(item: loading.item, decoder: decoder)
                if loading.seconds != opened.seconds {
                    do {
                        try source.seek(toFrame: source.format.frame(atSeconds: loading.seconds))
                    } catch {
                        return failOpening(loading.item, reason: error.reason)
                    }
                }
                source.writtenFrame = source.nextFrame
                current = source
                mode = loading.paused ? .paused : .playing
            case .failure(let error):
                failOpening(loading.item, reason: error.reason)
            }
        } else if case .opening(let item, _)? = successor, item.token == opened.token {
            switch opened.result {
            case .success(let decoder): successor = .ready(DecodingSource(item: item, decoder: decoder))
            case .failure(let error): successor = .failed(item, reason: error.reason)
            }
            // The current item may be decoded to its end already, waiting for this.
            if mode == .playing || mode == .paused, !decodingSuccessor, current?.exhausted == true {
                continueAfterCurrent()
            }
        }
        publish()
    }

    private static func notOpened(within limit: Duration) -> String {
        "the file did not open within \(limit.components.seconds) s"
    }

    private func failOpening(_ item: PlaybackItem, reason: String) {
        enterIdle()
        publish()
        channel.emit(.failed(token: item.token, reason: reason))
    }

    private func setNext(_ item: PlaybackItem?, after token: UInt64?) {
        // Meant for an item that is no longer the current one (the stream joined into
        // its successor, or ended, before the caller heard of it): taken as the new
        // item's successor it would play the wrong thing next, or the same item twice.
        // The caller answers the report it has yet to read with a fresh command.
        let playing = current?.token ?? loading?.item.token
        if let token, token != playing { return }
        if item == successor?.item { return }
        if let item, item.token == playing { return }
        // Whatever of the old successor was decoded ahead goes, and so does an `end`
        // mark for the current item: the stream after it is decided again here.
        let keep = current?.token
        buffer.removeAll { entry in
            if case .end = entry { return true }
            return entry.token != keep
        }
        successor = nil
        decodingSuccessor = false
        if let item {
            successor = .opening(item, until: .now + tuning.openLimit)
            opener.open(item, converting: output?.requiredFormat, at: 0)
        }
        // The current item is decoded to its end already: the stream continues right here.
        guard mode == .playing || mode == .paused, current?.exhausted ?? true else { return }
        continueAfterCurrent()
    }

    private func pause() {
        if mode == .opening { loading?.paused = true }
        guard mode == .playing || mode == .draining else { return }
        if openFormat != nil, let output {
            output.pause()
            outputPaused = true
        }
        mode = .paused
    }

    private func resume() {
        if mode == .opening { loading?.paused = false }
        guard mode == .paused else { return }
        if outputPaused { output?.resume() }
        outputPaused = false
        mode = .playing
    }

    private func stop() {
        if mode != .idle { discardOutput() }
        forgetItems()
        enterIdle()
    }

    private func seek(to seconds: Double, in token: UInt64?) {
        if mode == .opening, let item = loading?.item, token == nil || token == item.token {
            loading?.seconds = seconds
            return
        }
        guard let current, mode == .playing || mode == .paused else { return }
        // A seek meant for an item that has ended since is not applied to its successor.
        if let token, token != current.token { return }
        let frame = current.format.frame(atSeconds: seconds)
        rewindSuccessor()
        buffer.clear()
        discardOutput()
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

    private func startScan(rate: Double) {
        guard rate.isFinite, rate != 0 else { return endScan() }
        scan = ScanCursor(rate: rate, fragmentFrames: tuning.frames(tuning.scanFragment, rate: currentRate))
        rewindToWriteHead()
    }

    private func endScan() {
        guard scan != nil else { return }
        scan = nil
        rewindToWriteHead()
    }

    // MARK: the stream

    private func step(_ output: any AudioOutput) {
        switch mode {
        case .idle:
            if openFormat != nil {
                let closeAt = idleSince + tuning.idleClose
                if ContinuousClock.now >= closeAt {
                    output.close()
                    openFormat = nil
                    handed.reset()
                } else {
                    channel.waitForCommand(timeout: closeAt - .now)
                    return
                }
            }
            channel.waitForCommand(timeout: nil)
        case .paused:
            channel.waitForCommand(timeout: nil)
        case .opening:
            guard let loading else { return enterIdle() }
            if ContinuousClock.now < loading.until {
                channel.waitForCommand(timeout: loading.until - .now)
            } else {
                self.loading = nil
                failOpening(loading.item, reason: Self.notOpened(within: tuning.openLimit))
            }
        case .draining:
            let delay = openFormat == nil ? 0 : output.delayFrames
            if delay > 0, let openFormat {
                publish()
                let left = Duration.microseconds(Int64(delay) * 1_000_000 / Int64(openFormat.sampleRate))
                channel.waitForCommand(timeout: min(left, tuning.chunk))
            } else {
                if openFormat != nil { try? output.drain() }
                handed.reset()
                current = nil
                enterIdle()
                publish()
            }
        case .playing:
            fill()
            guard let entry = buffer.first else {
                // The successor is still being opened: the stream goes on when it is
                // there (or its failure is), not before.
                if case .opening(let item, let until)? = successor, current?.exhausted == true {
                    if ContinuousClock.now < until {
                        channel.waitForCommand(timeout: until - .now)
                    } else {
                        successor = .failed(item, reason: Self.notOpened(within: tuning.openLimit))
                        continueAfterCurrent()
                    }
                } else {
                    mode = .draining
                }
                return
            }
            switch entry {
            case .failed(let token, let reason):
                // The stream ends here, whichever item failed: what follows is the
                // listener's decision alone (its answer is a `play`), so the two sides
                // cannot each move on to a different entry. The output plays out what
                // it holds meanwhile.
                forgetItems()
                mode = .draining
                publish()
                channel.emit(.failed(token: token, reason: reason))
            case .end(let token):
                buffer.removeFirst()
                mode = .draining
                publish()
                channel.emit(.finished(token: token))
            case .audio(let chunk):
                write(chunk, to: output)
            }
        }
    }

    /// Hands the chunks at the head of the buffer to the output, once it is open in
    /// their format and has room: as many as fit in one `writeBatch`, in one write (one
    /// syscall and one wake-up for several chunks).
    private func write(_ first: AudioChunk, to output: any AudioOutput) {
        guard ensureOpen(output, format: first.format) else { return }
        if output.waitTime(forFrames: first.frames) > .zero {
            let batch = tuning.frames(tuning.writeBatch, rate: first.format.sampleRate)
            channel.waitForCommand(timeout: output.waitTime(forFrames: max(batch, first.frames)))
            return
        }
        let batchFrames = tuning.frames(tuning.writeBatch, rate: first.format.sampleRate)
        var chunks = [first]
        var frames = first.frames
        for entry in buffer.entries.dropFirst() {
            // A write is of one item gain: a unity item next to a scaled one stays
            // bit-exact (narrowing dithers whole writes).
            guard case .audio(let chunk) = entry, chunk.format == first.format, chunk.gain == first.gain,
                frames + chunk.frames <= batchFrames,
                output.waitTime(forFrames: frames + chunk.frames) == .zero
            else { break }
            chunks.append(chunk)
            frames += chunk.frames
        }
        let sampleCount = frames * first.format.channels
        let scaled = !volume.isUnity || first.gain != SoftwareVolume.unity
        let metering = channel.metering.load(ordering: .relaxed)
        if chunks.count == 1 && !scaled {
            first.samples.withUnsafeBufferPointer {
                encoder.encode($0, sourceBits: first.format.bits, scaled: false, as: openEncoding, into: &encoded)
                if metering { measure($0, format: first.format) }
            }
        } else {
            gather(chunks, samples: sampleCount, scaled: scaled)
            scratch.withUnsafeBufferPointer {
                let samples = UnsafeBufferPointer(rebasing: $0[..<sampleCount])
                encoder.encode(samples, sourceBits: first.format.bits, scaled: scaled, as: openEncoding, into: &encoded)
                if metering { measure(samples, format: first.format) }
            }
        }
        if !metering { meter.reset() }
        do {
            try encoded.withUnsafeBytes {
                try output.write(UnsafeRawBufferPointer(rebasing: $0[..<(sampleCount * openEncoding.bytesPerSample)]))
            }
        } catch {
            output.close()
            openFormat = nil
            handed.reset()
            outputProblem.failed((error as? AudioOutputError)?.description ?? "\(error)", tuning: tuning)
            report(outputProblem.newMessage())
            return
        }
        var started: [UInt64] = []
        for chunk in chunks {
            buffer.removeFirst()
            if chunk.token != announced, case .ready(let next)? = successor, next.token == chunk.token {
                // The write head reached the successor: it is the current item from here.
                current = next
                successor = nil
                decodingSuccessor = false
            }
            handed.append(token: chunk.token, itemStart: chunk.startFrame, frames: chunk.frames)
            current?.writtenFrame = chunk.startFrame + chunk.frames
            if chunk.token != announced {
                announced = chunk.token
                started.append(chunk.token)
            }
        }
        // The snapshot first: whoever reads it on hearing `started` sees the new item
        // and its own position, not the previous item's.
        publish()
        for token in started { channel.emit(.started(token: token)) }
        if volume.takeFadeEnded() { channel.emit(.fadeEnded) }
    }

    /// The samples going to the output, as they go (after volume and item gain).
    private func measure(_ samples: UnsafeBufferPointer<Int32>, format: AudioFormat) {
        if meter.add(samples, channels: format.channels, rate: format.sampleRate, window: tuning.levelWindow) {
            channel.publishLevel(&meter)
        }
    }

    /// Copies `chunks` (of one item gain) into `scratch`, one after the other, with the
    /// volume and the item gain applied when `scaled`.
    private func gather(_ chunks: [AudioChunk], samples: Int, scaled: Bool) {
        if scratch.count < samples { scratch = [Int32](repeating: 0, count: samples) }
        var offset = 0
        scratch.withUnsafeMutableBufferPointer { target in
            for chunk in chunks {
                chunk.samples.withUnsafeBufferPointer { source in
                    _ = UnsafeMutableBufferPointer(rebasing: target[offset..<(offset + source.count)])
                        .initialize(fromContentsOf: source)
                }
                offset += chunk.samples.count
            }
        }
        guard scaled else { return }
        scratch.withUnsafeMutableBufferPointer { target in
            volume.apply(
                to: UnsafeMutableBufferPointer(rebasing: target[..<samples]), channels: chunks[0].format.channels,
                sampleRate: chunks[0].format.sampleRate, itemGain: chunks[0].gain)
        }
    }

    private func ensureOpen(_ output: any AudioOutput, format: AudioFormat) -> Bool {
        if let openFormat, openFormat.joins(format) { return true }
        if let wait = outputProblem.waitBeforeRetry(), wait > .zero {
            channel.waitForCommand(timeout: wait)
            return false
        }
        if openFormat != nil {
            // A format change: the old stream plays out, then the device is reopened.
            try? output.drain()
            output.close()
            openFormat = nil
        }
        handed.reset()
        do {
            openEncoding = try output.open(format: format)
        } catch {
            outputProblem.failed(error.description, tuning: tuning)
            report(outputProblem.newMessage())
            publish()
            return false
        }
        openFormat = format
        outputPaused = false
        if outputProblem.recovered() { report(.some(nil)) }
        return true
    }

    private func report(_ message: String??) {
        guard let message else { return }
        channel.emit(.outputError(message))
        publish()
    }

    /// Decodes until the buffer holds `decodeAhead` or nothing is left to decode.
    private func fill() {
        while let source = decodeHead {
            let chunkFrames = tuning.frames(tuning.chunk, rate: source.format.sampleRate)
            let aheadChunks = max(2, Int(tuning.decodeAhead / tuning.chunk))
            guard buffer.audioChunks < aheadChunks else { return }
            let frames = min(chunkFrames, scan?.framesUntilJump ?? .max)
            var samples = [Int32](repeating: 0, count: frames * source.format.channels)
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
    private func continueAfterCurrent() {
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

    /// Scanning starts or ends: what was decoded ahead goes, and decoding resumes right
    /// after the last frame handed to the output (the device keeps what it has).
    private func rewindToWriteHead() {
        guard let current, mode == .playing || mode == .paused else { return }
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

    private func discardOutput() {
        if openFormat != nil { output?.discard() }
        outputPaused = false
        handed.reset()
    }

    private func forgetItems() {
        buffer.clear()
        current = nil
        loading = nil
        announced = nil
        successor = nil
        decodingSuccessor = false
        scan = nil
    }

    private func enterIdle() {
        mode = .idle
        idleSince = .now
    }

    private var currentRate: Int { current?.format.sampleRate ?? openFormat?.sampleRate ?? 44100 }

    // MARK: snapshot

    private func publish() {
        var snapshot = AudioSnapshot()
        snapshot.token = current?.token ?? loading?.item.token
        snapshot.duration = current?.duration
        snapshot.state =
            switch mode {
            case .idle: .idle
            case .paused: .paused
            case .playing, .draining: current == nil ? .idle : .playing
            case .opening: loading?.paused == true ? .paused : .playing
            }
        snapshot.position = loading?.seconds ?? 0
        // Between writes (up to `writeBatch` apart) a running output keeps playing: the
        // position read from the snapshot moves on with the clock, up to the last frame
        // handed out. Not while scanning, where the position jumps.
        var running: PlaybackChannel.RunningPosition?
        if let current {
            let rate = Double(current.format.sampleRate)
            let delay = openFormat == nil ? 0 : (output?.delayFrames ?? 0)
            if let heard = handed.heardFrame(of: current.token, delay: delay) {
                snapshot.position = Double(heard.frame) / rate
                if heard.hearing && mode == .playing && scan == nil {
                    running = .init(since: .now, limit: Double(current.writtenFrame) / rate)
                }
            } else {
                snapshot.position = Double(current.writtenFrame) / rate
            }
        }
        snapshot.scanning = scan != nil
        snapshot.outputName = outputName
        snapshot.outputError = outputProblem.message
        snapshot.underruns = output?.underruns ?? 0
        channel.publish(snapshot, running: running)
    }
}
