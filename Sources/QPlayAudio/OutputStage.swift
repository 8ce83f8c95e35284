/// The output end of the audio thread: the device and everything between the decoded
/// chunks and the bytes it takes. It opens the device in the stream's format (reopening
/// on a format change), retries a failed device with backoff, batches chunks into one
/// write, applies the volume and the item gain, measures the level, narrows to the
/// device's encoding, and keeps the record of what went out (`HandedFrames`) that
/// positions are read from. Items are not its business: it is handed buffer entries
/// and answers how many it wrote; what follows a write is the loop's.
///
/// On the audio thread alone. Its byte and sample buffers grow once to the largest
/// write and are reused, so a write allocates nothing.
final class OutputStage {
    /// What `open(for:)` found.
    enum Opening {
        /// Open in a format the stream joins.
        case open
        /// Opened after a failure that had been reported: report that it works again.
        case recovered
        /// A retry is not due yet: wait this long (a command may end the wait).
        case retry(after: Duration)
        /// The device did not open: report `newProblem()`.
        case failed
    }

    let device: any AudioOutput
    /// The device's name, read once: the snapshot carries it with every publish.
    let name: String
    /// The outputs after the first, handed a copy of each write.
    let followers: [FollowingOutput]
    /// The format every output takes, when one of them takes only one: decoders convert
    /// to it.
    let requiredFormat: AudioFormat?
    private let channel: PlaybackChannel
    private let tuning: PlaybackTuning

    /// The format the device is open in; nil while closed.
    private(set) var openFormat: AudioFormat?
    /// How the open device takes samples (answered by its `open`).
    private var encoding = SampleEncoding.s16
    private var encoder = SampleEncoder()
    private var encoded: [UInt8] = []
    /// The device was paused by `pause` (and is resumed, not rewritten, by `resume`).
    private var paused = false
    private var problem = OutputProblem()
    private var volume = SoftwareVolume()
    /// The chunks of the write being made; kept (empty) between writes for its storage.
    private var batch: [AudioChunk] = []
    /// Chunks to be scaled are gathered here (the volume ramps across the whole write).
    private var scratch: [Int32] = []
    private var meter = LevelMeter()
    private var handed = HandedFrames()
    /// The device's delay when audio last found it unchanged, and since when: see
    /// `watchForStall`.
    private var stallWatch: (delay: Int, since: ContinuousClock.Instant)?

    init(device: any AudioOutput, followers: [any AudioOutput] = [], channel: PlaybackChannel, tuning: PlaybackTuning) {
        self.device = device
        name = device.name
        self.followers = followers.enumerated().map { FollowingOutput(device: $1, tuning: tuning, index: $0 + 1) }
        requiredFormat = device.requiredFormat ?? self.followers.lazy.compactMap(\.requiredFormat).first
        self.channel = channel
        self.tuning = tuning
    }

    var isOpen: Bool { openFormat != nil }
    /// Frames written and not yet heard (0 while closed).
    var delayFrames: Int { openFormat == nil ? 0 : device.delayFrames }
    /// The failure status shows; nil while the device works.
    var problemMessage: String? { problem.message }
    /// The device is open but took no samples for `stallLimit`.
    var isStalled: Bool { problem.state == .stalled }
    /// The device as status shows it.
    var condition: OutputCondition { OutputCondition(name: name, state: problem.state, error: problem.message) }
    /// Every output as status shows it, the first first.
    var conditions: [OutputCondition] { [condition] + followers.map(\.condition) }

    // MARK: volume

    func setVolume(percent: Int) { volume.set(percent: percent) }
    func fade(to factor: Double, over seconds: Double) { volume.fade(to: factor, over: seconds) }
    /// Whether a fade with a duration reached its target in the samples written.
    func takeFadeEnded() -> Bool { volume.takeFadeEnded() }

    // MARK: opening and closing

    /// Makes the device ready for audio of `format`: open already in a format it joins,
    /// or (once a retry is due) closed after playing out the old stream and opened anew.
    func open(for format: AudioFormat) -> Opening {
        if let openFormat, openFormat.joins(format) { return .open }
        if let wait = problem.waitBeforeRetry(), wait > .zero { return .retry(after: wait) }
        if openFormat != nil {
            // A format change: the old stream plays out, then the device is reopened.
            try? device.drain()
            device.close()
            openFormat = nil
        }
        handed.reset()
        do {
            encoding = try device.open(format: format)
        } catch {
            problem.failed(error.description, tuning: tuning)
            return .failed
        }
        openFormat = format
        paused = false
        for follower in followers { follower.begin(format: format, encoding: encoding) }
        return problem.recovered() ? .recovered : .open
    }

    /// The failure message when it differs from the one reported last (nil: nothing new
    /// to say; `.some(nil)`: it works again).
    func newProblem() -> String?? { problem.newMessage() }

    /// How long to wait before `first` fits in the device; nil: it fits now.
    /// The wait ends in time for `watchForStall` to say so when the device is stuck.
    func waitForRoom(_ first: AudioChunk) -> Duration? {
        guard device.waitTime(forFrames: first.frames) > .zero else { return nil }
        let batchFrames = tuning.frames(tuning.writeBatch, rate: first.format.sampleRate)
        let wait = device.waitTime(forFrames: max(batchFrames, first.frames))
        return watchForStall().map { min(wait, $0) } ?? wait
    }

    /// Called while audio waits for the device (for room, or to play out). The device's
    /// delay moves while it takes samples — a clock or a reader drains it — so one that
    /// stays put for `stallLimit` has stopped (a FIFO whose reader keeps it open and
    /// reads nothing: its write end never fails, and without this the player would
    /// say "playing" with a frozen position forever). The device stays open and holds
    /// what it was given; the stall clears as soon as the delay moves. Answers how long
    /// until a stall would be declared; nil once it is.
    @discardableResult
    func watchForStall() -> Duration? {
        guard openFormat != nil else { return nil }
        let delay = device.delayFrames
        let now = ContinuousClock.now
        guard delay > 0, let watch = stallWatch, watch.delay == delay else {
            stallWatch = (delay, now)
            problem.flowing()
            return tuning.stallLimit
        }
        let waited = now - watch.since
        if waited < tuning.stallLimit { return tuning.stallLimit - waited }
        let (seconds, attoseconds) = tuning.stallLimit.components
        problem.stalled("\(name): stalled: took no samples for \(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms")
        return nil
    }

    func pause() {
        stallWatch = nil
        guard openFormat != nil else { return }
        device.pause()
        for follower in followers { follower.pause() }
        paused = true
    }

    func resume() {
        stallWatch = nil
        if paused {
            device.resume()
            for follower in followers { follower.resume() }
        }
        paused = false
    }

    /// Drops what the device holds and was not heard yet (a cut: skip, seek, stop).
    func discard() {
        if openFormat != nil {
            device.discard()
            for follower in followers { follower.discard() }
        }
        paused = false
        handed.reset()
        stallWatch = nil
    }

    /// The stream ended: what the device holds is played out.
    func playOut() {
        if openFormat != nil { try? device.drain() }
        handed.reset()
        stallWatch = nil
    }

    /// Releases the device (idle long enough); the next write opens it again.
    func close() {
        device.close()
        for follower in followers { follower.close() }
        openFormat = nil
        handed.reset()
        stallWatch = nil
    }

    /// The thread ends: what the device holds is played out when `playingOut`, then the
    /// device is released.
    func shutDown(playingOut: Bool) {
        if openFormat != nil {
            if playingOut { try? device.drain() }
            device.close()
        }
        for follower in followers { follower.shutDown(playingOut: playingOut && openFormat != nil) }
    }

    /// The item frame of `token` heard now and whether it is being heard (see
    /// `HandedFrames.heardFrame`).
    func heardFrame(of token: UInt64) -> (frame: Int, hearing: Bool)? {
        handed.heardFrame(of: token, delay: delayFrames)
    }

    // MARK: writing

    /// Writes the audio chunks at the head of `entries` (the first must be one, and fit:
    /// see `waitForRoom`): as many as fit in one `writeBatch` and in the device, in one
    /// write — one syscall and one wake-up for several chunks. Answers how many it
    /// wrote; nil when the write failed (the device is closed and retried later: report
    /// `newProblem()`).
    func write(_ entries: [BufferEntry]) -> Int? {
        guard case .audio(let first)? = entries.first else { return 0 }
        defer { batch.removeAll(keepingCapacity: true) }
        let batchFrames = tuning.frames(tuning.writeBatch, rate: first.format.sampleRate)
        batch.append(first)
        var frames = first.frames
        // Usually the whole batch fits (`waitForRoom` waited for it): one question to
        // the device instead of one per chunk.
        let fits = device.waitTime(forFrames: batchFrames) == .zero
        for entry in entries.dropFirst() {
            // A write is of one item gain: a unity item next to a scaled one stays
            // bit-exact (narrowing dithers whole writes).
            guard case .audio(let chunk) = entry, chunk.format == first.format, chunk.gain == first.gain,
                frames + chunk.frames <= batchFrames
            else { break }
            if !fits {
                guard device.waitTime(forFrames: frames + chunk.frames) == .zero else { break }
            }
            batch.append(chunk)
            frames += chunk.frames
        }
        let sampleCount = frames * first.format.channels
        let scaled = !volume.isUnity || first.gain != SoftwareVolume.unity
        let metering = channel.metering.load(ordering: .relaxed)
        if !scaled {
            // Untouched samples are narrowed straight from each chunk's own storage.
            var byteOffset = 0
            for chunk in batch {
                chunk.samples.withUnsafeBufferPointer {
                    encoder.encode(
                        $0, sourceBits: first.format.bits, scaled: false, as: encoding, into: &encoded, at: byteOffset)
                    if metering { measure($0, format: first.format) }
                }
                byteOffset += chunk.samples.count * encoding.bytesPerSample
            }
        } else {
            gather(samples: sampleCount)
            scratch.withUnsafeBufferPointer {
                let samples = UnsafeBufferPointer(rebasing: $0[..<sampleCount])
                encoder.encode(samples, sourceBits: first.format.bits, scaled: true, as: encoding, into: &encoded)
                if metering { measure(samples, format: first.format) }
            }
        }
        if !metering { meter.reset() }
        do {
            try encoded.withUnsafeBytes {
                let bytes = UnsafeRawBufferPointer(rebasing: $0[..<(sampleCount * encoding.bytesPerSample)])
                try device.write(bytes)
                for follower in followers { follower.take(bytes) }
            }
        } catch {
            close()
            problem.failed((error as? AudioOutputError)?.description ?? "\(error)", tuning: tuning)
            return nil
        }
        for chunk in batch { handed.append(token: chunk.token, itemStart: chunk.startFrame, frames: chunk.frames) }
        stallWatch = nil
        problem.flowing()
        return batch.count
    }

    /// The samples going to the device, as they go (after volume and item gain).
    private func measure(_ samples: UnsafeBufferPointer<Int32>, format: AudioFormat) {
        if meter.add(samples, channels: format.channels, rate: format.sampleRate, window: tuning.levelWindow) {
            channel.publishLevel(&meter)
        }
    }

    /// Copies the batch (of one item gain) into `scratch`, one chunk after the other,
    /// and applies the volume and the item gain there.
    private func gather(samples: Int) {
        if scratch.count < samples { scratch = [Int32](repeating: 0, count: samples) }
        var offset = 0
        scratch.withUnsafeMutableBufferPointer { target in
            for chunk in batch {
                chunk.samples.withUnsafeBufferPointer { source in
                    _ = UnsafeMutableBufferPointer(rebasing: target[offset..<(offset + source.count)])
                        .initialize(fromContentsOf: source)
                }
                offset += chunk.samples.count
            }
        }
        let format = batch[0].format
        let gain = batch[0].gain
        scratch.withUnsafeMutableBufferPointer { target in
            volume.apply(
                to: UnsafeMutableBufferPointer(rebasing: target[..<samples]), channels: format.channels,
                sampleRate: format.sampleRate, itemGain: gain)
        }
    }
}
