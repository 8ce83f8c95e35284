import Logging
import QPlayAudio
import QPlayEngine
import QPlayLibrary
import QPlayModel
import SystemPackage

/// The edge between the pure engine and the world: it feeds the engine commands with
/// the time and the position the audio thread reports, carries out the audio commands
/// the engine returns, arms the engine's deadline (tap/hold), turns engine events into
/// core events for every frontend (`EventPublisher`) and saves every change before the command that made it is answered
/// (a few rows: see `StateStore`). Nothing here blocks the audio thread: every
/// AudioPlayer call only queues a command.
///
/// A save that fails (disk full, read-only) does not fail the command: the change holds
/// in memory, `status.storage_error` and a `storage` event tell of it, and the state is
/// saved — and the error cleared — at the next change or retry that works.
actor PlayerService {
    private var engine: PlayerEngine
    private let audio: AudioPlayer
    private let musicDirectory: FilePath
    private let replayGain: ReplayGainSettings
    private let store: StateStore?
    private let events: EventPublisher
    private let log: Logger
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant
    private var deadline: Task<Void, Never>?
    /// Why the last save failed, nil while saves work.
    private var storageError: String?
    private var saveRetry: Task<Void, Never>?
    /// A failed save is tried again this often (and at every change) until one works.
    static let saveRetryInterval = Duration.milliseconds(500)
    private var background: [Task<Void, Never>] = []
    /// Where the audio thread was last told to be (a `play` or `seek`) until its
    /// snapshot shows it got there. Commands are only queued for the audio thread, so
    /// for a moment after one its snapshot still tells of the old track or position:
    /// the status answering `next` or `seek`, and the position the next command is
    /// computed from (a second `seek +10` right after the first), use this instead.
    private var commanded: CommandedPosition?
    /// The ReplayGain decided for the requests the audio thread holds (now-playing and
    /// its successor), for `status`.
    private var replayGainChoices: [UInt64: ReplayGainSettings.Choice] = [:]

    init(
        engine: PlayerEngine, audio: AudioPlayer, musicDirectory: FilePath, replayGain: ReplayGainSettings = .init(),
        store: StateStore?, events: EventPublisher, log: Logger
    ) {
        self.engine = engine
        self.audio = audio
        self.musicDirectory = musicDirectory
        self.replayGain = replayGain
        self.store = store
        self.events = events
        self.log = log
        origin = clock.now
    }

    /// Hands the (restored) state to the audio thread and starts listening to it.
    func start(restoredPosition: Double) {
        apply(engine.attachAudio(position: restoredPosition))
        let audio = self.audio
        background.append(
            Task { [weak self] in
                for await event in audio.events {
                    await self?.handle(event)
                }
            })
        // The position moves without events; the store keeps at most one write a second.
        background.append(
            Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    await self?.savePosition()
                }
            })
    }

    /// Saves everything, stops the audio thread (closing the device) and the timers.
    func shutdown() {
        deadline?.cancel()
        for task in background { task.cancel() }
        saveRetry?.cancel()
        saveNow()
        if !audio.shutdown(limit: .seconds(1)) {
            log.warning("the audio thread did not stop within 1 s (a file read that does not return); exiting without it")
        }
        do {
            try store?.close()
        } catch {
            log.error("could not save the player state: \(error)")
        }
    }

    // MARK: Reading

    private var now: Duration { clock.now - origin }

    /// The current track's position as the audio thread reports it (frames handed to
    /// the device minus what the device has not played yet), or where it was told to go
    /// while it has not got there yet. A snapshot of another request than the engine's
    /// now-playing one describes another moment (the audio thread is a step ahead, or
    /// the engine is): it lends no position, so a track change never shows the new
    /// track at the old one's position.
    private var position: Double {
        let snapshot = audio.snapshot
        let now = clock.now
        let token = inPlace { $0.currentRequestToken }
        if let commanded {
            // A command for another request (a seek near the end, then the track
            // changed) says nothing about this one.
            if commanded.token == token, !commanded.reached(by: snapshot, now: now) {
                return commanded.expected(at: now)
            }
            self.commanded = nil
        }
        guard let token, snapshot.token == token else { return 0 }
        return snapshot.position
    }

    /// The player as every frontend shows it (JSON `status`, MPD's `status`).
    func snapshot() -> PlayerSnapshot {
        let position = self.position
        let snapshot = audio.snapshot
        let now = self.now
        let (status, token, sleep) = inPlace { engine in
            // The length the decoder measured, of the request status describes: one
            // snapshot gives track, position and duration alike.
            let measured = snapshot.token != nil && snapshot.token == engine.currentRequestToken ? snapshot.duration : nil
            engine.refreshUpcoming()
            let sleep = engine.sleepRemaining(now: now, position: position, duration: measured).map {
                (remaining: $0, endOfTrack: engine.sleepTimer == .endOfTrack)
            }
            return (engine.status(position: position, duration: measured), engine.currentRequestToken, sleep)
        }
        return PlayerSnapshot(
            status: status,
            outputName: snapshot.outputName, outputError: snapshot.outputError, storageError: storageError,
            replayGainMode: replayGain.mode,
            replayGain: token.flatMap { replayGainChoices[$0] },
            sleep: sleep,
            level: status.state == .playing && snapshot.state == .playing ? audio.level : nil)
    }

    /// The snapshot and an answer of the engine from the same moment (MPRIS asks
    /// whether next and previous would change track).
    func snapshot<Answer: Sendable>(asking question: @Sendable (PlayerEngine) -> Answer) -> (PlayerSnapshot, Answer) {
        let snapshot = snapshot()
        return (snapshot, inPlace { question($0) })
    }

    /// The engine read where it is stored. A getter called on the stored property copies
    /// the whole engine first — queue, plan and entries retained, then released —
    /// four times for one `status`; through `inout` nothing is copied.
    private func inPlace<Result>(_ body: (inout PlayerEngine) -> Result) -> Result {
        body(&engine)
    }

    /// The collection the user sees, with its version.
    func queueSnapshot() -> QueueSnapshot {
        engine.queue
    }

    // MARK: Commands

    /// Runs one engine command with the current time and position and carries out what
    /// it returns.
    func perform<Result: Sendable>(
        _ command: @Sendable (inout PlayerEngine, Duration, Double) throws(EngineError) -> (Result, EngineOutput)
    ) throws(EngineError) -> Result {
        let (result, output) = try command(&engine, now, position)
        apply(output)
        return result
    }

    func perform(
        _ command: @Sendable (inout PlayerEngine, Duration, Double) throws(EngineError) -> EngineOutput
    ) throws(EngineError) {
        let output = try command(&engine, now, position)
        apply(output)
    }

    /// A press is not tied to the connection that sent it: key bindings run one `qplay
    /// press` and, at key-up, another process's `qplay release`. A press that is never
    /// released ends itself at the engine's maximum hold.
    func press(_ button: Button) {
        apply(engine.press(button, now: now, position: position))
    }

    func release(_ button: Button) throws(EngineError) -> (action: ButtonAction, heldMilliseconds: Int) {
        let result = try engine.release(button, now: now, position: position)
        apply(result.output)
        return (result.action, result.heldMilliseconds)
    }

    // MARK: Carrying out

    private func apply(_ output: EngineOutput) {
        for command in output.audio {
            send(command)
        }
        saveResumePoints(output.resumePoints)
        // Saved before anyone hears of it: an event or an answer tells of a saved change.
        if !output.audio.isEmpty || !output.events.isEmpty {
            saveNow()
        }
        for event in output.events {
            switch event {
            case .player:
                events.publish(.player(snapshot()))
            case .queue:
                let queue = engine.queue
                events.publish(
                    .queue(QueueChangeSummary(length: queue.entries.count, modified: queue.modified, version: queue.version)))
            case .playbackFailed(let entry, let reason):
                log.error("skipped \(entry.track.path): \(reason)")
                events.publish(.error(entry: entry, reason: reason))
            }
        }
        armDeadline()
    }

    /// Writes what changed since the last save, and the position with it (so after a
    /// track change the position never belongs to the entry before).
    private func saveNow() {
        guard let store else { return }
        let position = self.position
        do {
            try store.save(engine.persistedState(position: position), position: savedPosition(position))
            if storageError != nil { storageRecovered() }
        } catch .closed {
            // Shut down: an audio report arriving after the last save changes nothing.
        } catch {
            storageFailed(error)
        }
    }

    /// Each resume point is written when the engine takes it (one small transaction),
    /// so a `kill -9` loses none. A failed write loses that point only: the track then
    /// starts where its previous point was, or from 0.
    private func saveResumePoints(_ changes: [ResumePointChange]) {
        guard let store else { return }
        for change in changes {
            do {
                try store.setResumePoint(track: change.track, position: change.position)
            } catch {
                log.error("could not save the resume point of track \(change.track): \(error)")
            }
        }
    }

    private func storageFailed(_ error: StateStoreError) {
        let message: String
        switch error {
        case .writeFailed(let path, let reason): message = "cannot write \(path): \(reason)"
        default: message = error.description
        }
        if storageError != message {
            log.error("\(message); changes are kept in memory and saved when the disk works again")
            storageError = message
            events.publish(.storage(message))
        }
        guard saveRetry == nil else { return }
        saveRetry = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.saveRetryInterval)
                guard !Task.isCancelled else { return }
                await self?.saveNow()
            }
        }
    }

    private func storageRecovered() {
        saveRetry?.cancel()
        saveRetry = nil
        storageError = nil
        log.notice("the player state is saved again")
        events.publish(.storage(nil))
    }

    private func send(_ command: AudioCommand) {
        let now = clock.now
        switch command {
        case .play(let request, let from, let paused):
            commanded = CommandedPosition(token: request.token, seeking: false, seconds: from, at: now, moving: !paused)
            audio.play(item(request), from: from, paused: paused)
        case .setNext(let request):
            // Tied to the request the engine holds for now-playing: arriving after the
            // stream moved on, it is dropped rather than attached to the wrong item.
            audio.setNext(request.map(item), after: engine.currentRequestToken)
        case .pause:
            commanded = commanded.map { $0.paused(at: now) }
            audio.pause()
        case .resume:
            commanded = commanded.map { $0.resumed(at: now) }
            audio.resume()
        case .stop:
            commanded = nil
            audio.stop()
        case .seek(let seconds):
            let moving = engine.playbackState == .playing
            commanded = CommandedPosition(
                token: engine.currentRequestToken, seeking: true, seconds: seconds, at: now, moving: moving)
            audio.seek(to: seconds, in: engine.currentRequestToken)
        case .volume(let percent): audio.setVolume(percent)
        case .scan(let rate):
            // While scanning, the snapshot is the only truth.
            commanded = nil
            audio.startScan(rate: rate)
        case .endScan: audio.endScan()
        case .fade(let factor, let seconds): audio.fade(to: factor, over: seconds)
        }
    }

    /// The request as the audio thread plays it, with its ReplayGain decided now: for
    /// `auto` from its neighbours in the play order at the moment it is handed over
    /// (played or prefetched), which holds for the rest of that play.
    private func item(_ request: PlaybackRequest) -> PlaybackItem {
        let track = request.entry.track
        let withinAlbum = replayGain.mode == .auto && engine.playsWithinAlbum(request.entry)
        let choice = replayGain.choice(for: track.replayGain, withinAlbum: withinAlbum)
        // Only the requests the audio thread can still play are kept.
        let current = engine.currentRequestToken
        replayGainChoices = replayGainChoices.filter { $0.key == current }
        replayGainChoices[request.token] = choice
        if let choice {
            log.debug("ReplayGain \(choice.source.rawValue) gain \(choice.decibels) dB for \(track.path)")
        }
        return PlaybackItem(token: request.token, path: musicDirectory.pushing(track.path), gain: choice?.factor ?? 1)
    }

    /// Tap/hold: the engine says when it next needs the time (threshold, maximum hold).
    private func armDeadline() {
        deadline?.cancel()
        deadline = nil
        guard let due = engine.nextDeadline else { return }
        let instant = origin + due
        deadline = Task { [weak self] in
            try? await Task.sleep(until: instant, clock: .continuous)
            guard !Task.isCancelled else { return }
            await self?.tick()
        }
    }

    private func tick() {
        apply(engine.tick(now: now, position: position))
    }

    private func handle(_ event: AudioEvent) {
        switch event {
        case .started(let token):
            apply(engine.audioStarted(token: token, now: now))
        case .finished(let token):
            apply(engine.audioFinished(token: token, now: now))
        case .failed(let token, let reason):
            apply(engine.audioFailed(token: token, reason: reason, now: now))
        case .fadeEnded:
            apply(engine.audioFadeEnded(now: now, position: position))
        case .outputError(let message):
            if let message {
                // The message begins with the output's name.
                log.error("output \(message) (retrying)")
            } else {
                log.info("output \(audio.snapshot.outputName) recovered")
            }
            events.publish(.player(snapshot()))
        }
    }

    private func savedPosition(_ position: Double) -> SavedPosition {
        SavedPosition(entry: engine.queue.current, seconds: position)
    }

    private func savePosition() {
        // A position write that failed in the background is a failing disk like any
        // other: reported, and retried by saving everything.
        if let error = store?.takePositionWriteError() { storageFailed(error) }
        guard engine.playbackState == .playing else { return }
        let position = self.position
        store?.savePosition(entry: engine.queue.current, seconds: position)
    }
}
