/// The body of the audio thread: its modes and its commands. The stream the output
/// plays is put together by a `StreamAssembler`, and the device is fed by an
/// `OutputStage`; the loop decides when each acts and sends the events and snapshots
/// that tell the rest of the daemon. A decoder is opened on a thread of its own
/// (`DecoderOpener`) and handed over once, so nothing a file does can stall the output
/// or the commands. Each turn: take the commands and the opened decoders, then decode
/// ahead and hand chunks to the output, or wait (interruptibly) for a command, an opened
/// decoder, room in the output, or the next output retry.
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
    private let opener: DecoderOpener
    private let tuning: PlaybackTuning
    private let output: OutputStage
    private let stream: StreamAssembler

    private var mode = Mode.idle
    private var idleSince = ContinuousClock.now
    private var loading: PendingPlay?

    /// Made on the audio thread: `makeOutput` runs here, so the output is created where
    /// it lives. `makeFollowers`: the outputs after the first (see `FollowingOutput`).
    init(
        channel: PlaybackChannel, makeOutput: @Sendable () -> any AudioOutput,
        makeFollowers: @Sendable () -> [any AudioOutput] = { [] }, decoders: DecoderRegistry, tuning: PlaybackTuning
    ) {
        self.channel = channel
        opener = DecoderOpener(decoders: decoders, channel: channel)
        self.tuning = tuning
        output = OutputStage(device: makeOutput(), followers: makeFollowers(), channel: channel, tuning: tuning)
        stream = StreamAssembler(tuning: tuning)
    }

    func run() {
        publish()
        while true {
            let (commands, opened, shutDown) = channel.takeCommands()
            for command in commands { handle(command) }
            for decoder in opened { received(decoder) }
            if shutDown { break }
            step()
        }
        // Play out what the device holds (at most its buffer) unless paused or stopped.
        output.shutDown(playingOut: mode == .playing || mode == .draining)
        stream.forget()
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
        case .volume(let percent): output.setVolume(percent: percent)
        case .fade(let factor, let seconds): output.fade(to: factor, over: seconds)
        case .scan(let rate): startScan(rate: rate)
        case .endScan: endScan()
        }
        publish()
    }

    private func play(_ item: PlaybackItem, from seconds: Double, paused: Bool) {
        // A fully handed-out item (draining) is let play to its end: the new one follows
        // it without a cut. Anything still playing is cut now.
        if mode == .playing || mode == .paused { output.discard() }
        forgetItems()
        loading = PendingPlay(
            item: item, openedAt: seconds, seconds: seconds, paused: paused, until: .now + tuning.openLimit)
        opener.open(item, converting: output.requiredFormat, at: seconds)
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
                stream.begin(source)
                mode = loading.paused ? .paused : .playing
            case .failure(let error):
                failOpening(loading.item, reason: error.reason)
            }
        } else if stream.successorOpened(opened) {
            // The current item may be decoded to its end already, waiting for this.
            if mode == .playing || mode == .paused, stream.awaitsSuccessor { stream.continueAfterCurrent() }
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
        let playing = stream.current?.token ?? loading?.item.token
        if let token, token != playing { return }
        if item == stream.successor?.item { return }
        if let item, item.token == playing { return }
        stream.replaceSuccessor(with: item, until: .now + tuning.openLimit)
        if let item { opener.open(item, converting: output.requiredFormat, at: 0) }
        // The current item is decoded to its end already: the stream continues right here.
        guard mode == .playing || mode == .paused, stream.current?.exhausted ?? true else { return }
        stream.continueAfterCurrent()
    }

    private func pause() {
        if mode == .opening { loading?.paused = true }
        guard mode == .playing || mode == .draining else { return }
        output.pause()
        mode = .paused
    }

    private func resume() {
        if mode == .opening { loading?.paused = false }
        guard mode == .paused else { return }
        output.resume()
        mode = .playing
    }

    private func stop() {
        if mode != .idle { output.discard() }
        forgetItems()
        enterIdle()
    }

    private func seek(to seconds: Double, in token: UInt64?) {
        if mode == .opening, let item = loading?.item, token == nil || token == item.token {
            loading?.seconds = seconds
            return
        }
        guard let current = stream.current, mode == .playing || mode == .paused else { return }
        // A seek meant for an item that has ended since is not applied to its successor.
        if let token, token != current.token { return }
        output.discard()
        stream.seek(toFrame: current.format.frame(atSeconds: seconds))
    }

    private func startScan(rate: Double) {
        guard rate.isFinite, rate != 0 else { return endScan() }
        stream.startScan(ScanCursor(rate: rate, fragmentFrames: tuning.frames(tuning.scanFragment, rate: currentRate)))
        rewindToWriteHead()
    }

    private func endScan() {
        guard stream.endScan() else { return }
        rewindToWriteHead()
    }

    private func rewindToWriteHead() {
        guard mode == .playing || mode == .paused else { return }
        stream.rewindToWriteHead()
    }

    // MARK: the turn

    private func step() {
        switch mode {
        case .idle:
            if output.isOpen {
                let closeAt = idleSince + tuning.idleClose
                if ContinuousClock.now >= closeAt {
                    output.close()
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
            let delay = output.delayFrames
            if delay > 0, let format = output.openFormat {
                output.watchForStall()
                reportProblems()
                publish()
                let left = Duration.microseconds(Int64(delay) * 1_000_000 / Int64(format.sampleRate))
                channel.waitForCommand(timeout: min(left, tuning.chunk))
            } else {
                output.playOut()
                stream.endCurrent()
                enterIdle()
                publish()
            }
        case .playing:
            stream.fill()
            guard let entry = stream.buffer.first else {
                // The successor is still being opened: the stream goes on when it is
                // there (or its failure is), not before.
                if case .opening(_, let until)? = stream.successor, stream.current?.exhausted == true {
                    if ContinuousClock.now < until {
                        channel.waitForCommand(timeout: until - .now)
                    } else {
                        stream.successorNotOpened(reason: Self.notOpened(within: tuning.openLimit))
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
                stream.dropFirst()
                mode = .draining
                publish()
                channel.emit(.finished(token: token))
            case .audio(let chunk):
                write(chunk)
            }
        }
    }

    /// Hands the chunks at the head of the stream to the output once it is open in
    /// their format and has room, then moves the write head past them.
    private func write(_ first: AudioChunk) {
        switch output.open(for: first.format) {
        case .open: break
        case .recovered: report(.some(nil), from: output.name)
        case .retry(let wait): return channel.waitForCommand(timeout: wait)
        case .failed:
            report(output.newProblem(), from: output.name)
            return publish()
        }
        if let wait = output.waitForRoom(first) {
            report(output.newProblem(), from: output.name)
            return channel.waitForCommand(timeout: wait)
        }
        guard let count = output.write(stream.buffer.entries) else {
            return report(output.newProblem(), from: output.name)
        }
        reportProblems()
        let started = stream.handedOut(count)
        // The snapshot first: whoever reads it on hearing `started` sees the new item
        // and its own position, not the previous item's.
        publish()
        for token in started { channel.emit(.started(token: token)) }
        if output.takeFadeEnded() { channel.emit(.fadeEnded) }
    }

    /// The first output's news, then each follower's.
    private func reportProblems() {
        report(output.newProblem(), from: output.name)
        for follower in output.followers { report(follower.newProblem(), from: follower.name) }
    }

    private func report(_ message: String??, from output: String) {
        guard let message else { return }
        // The snapshot first: whoever reads it on hearing the event sees the output's
        // new state.
        publish()
        channel.emit(.outputError(output: output, message: message))
    }

    private func forgetItems() {
        stream.forget()
        loading = nil
    }

    private func enterIdle() {
        mode = .idle
        idleSince = .now
    }

    private var currentRate: Int { stream.current?.format.sampleRate ?? output.openFormat?.sampleRate ?? 44100 }

    // MARK: snapshot

    private func publish() {
        var snapshot = AudioSnapshot()
        let current = stream.current
        snapshot.token = current?.token ?? loading?.item.token
        snapshot.duration = current?.duration
        snapshot.chapters = current?.decoder.chapters ?? []
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
        // handed out. Not while scanning, where the position jumps, nor while the
        // output is stalled, where it stands still.
        var running: PlaybackChannel.RunningPosition?
        if let current {
            let rate = Double(current.format.sampleRate)
            if let heard = output.heardFrame(of: current.token) {
                snapshot.position = Double(heard.frame) / rate
                if heard.hearing && mode == .playing && stream.scan == nil && !output.isStalled {
                    running = .init(since: .now, limit: Double(current.writtenFrame) / rate)
                }
            } else {
                snapshot.position = Double(current.writtenFrame) / rate
            }
        }
        snapshot.scanning = stream.scan != nil
        snapshot.outputName = output.name
        snapshot.outputError = output.problemMessage
        snapshot.outputs = output.conditions
        snapshot.underruns = output.device.underruns
        channel.publish(snapshot, running: running)
    }
}
