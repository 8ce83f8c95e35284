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
///
/// The actor keeps its state and the order of a command's effects here; the rest lives
/// in extensions by responsibility: `+Snapshots` (what frontends read),
/// `+AudioCommands` (requests handed to the audio thread, their ReplayGain),
/// `+AudioReports` (what the audio thread tells back, the tap/hold deadline) and
/// `+Persistence` (saves, resume points, the failing-disk retry, the position).
actor PlayerService {
    var engine: PlayerEngine
    let audio: AudioPlayer
    let musicDirectory: FilePath
    let replayGain: ReplayGainSettings
    let store: StateStore?
    let events: EventPublisher
    let log: Logger
    let clock = ContinuousClock()
    let origin: ContinuousClock.Instant
    var deadline: Task<Void, Never>?
    /// Why the last save failed, nil while saves work.
    var storageError: String?
    var saveRetry: Task<Void, Never>?
    /// A failed save is tried again this often (and at every change) until one works.
    static let saveRetryInterval = Duration.milliseconds(500)
    private var background: [Task<Void, Never>] = []
    /// Where the audio thread was last told to be (a `play` or `seek`) until its
    /// snapshot shows it got there. Commands are only queued for the audio thread, so
    /// for a moment after one its snapshot still tells of the old track or position:
    /// the status answering `next` or `seek`, and the position the next command is
    /// computed from (a second `seek +10` right after the first), use this instead.
    var commanded: CommandedPosition?
    /// The ReplayGain decided for the requests the audio thread holds (now-playing and
    /// its successor), for `status`.
    var replayGainChoices: [UInt64: ReplayGainSettings.Choice] = [:]
    /// The track changes commands made, for desktop notifications (`TrackNotifier`).
    nonisolated let commandedChanges = CommandedTrackChanges()
    /// What the playing streams (URL entries) told of themselves.
    nonisolated let streams: StreamMetadataBoard

    init(
        engine: PlayerEngine, audio: AudioPlayer, musicDirectory: FilePath, replayGain: ReplayGainSettings = .init(),
        store: StateStore?, events: EventPublisher, log: Logger, streams: StreamMetadataBoard = StreamMetadataBoard()
    ) {
        self.streams = streams
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
                    await self?.reportHeard()
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

    var now: Duration { clock.now - origin }

    /// The current track's position as the audio thread reports it (frames handed to
    /// the device minus what the device has not played yet), or where it was told to go
    /// while it has not got there yet. A snapshot of another request than the engine's
    /// now-playing one describes another moment (the audio thread is a step ahead, or
    /// the engine is): it lends no position, so a track change never shows the new
    /// track at the old one's position.
    var position: Double {
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

    /// The engine read where it is stored. A getter called on the stored property copies
    /// the whole engine first — queue, plan and entries retained, then released —
    /// four times for one `status`; through `inout` nothing is copied.
    func inPlace<Result>(_ body: (inout PlayerEngine) -> Result) -> Result {
        body(&engine)
    }

    // MARK: Commands

    /// Runs one engine command with the current time and position and carries out what
    /// it returns.
    /// `chosenByUser` false: a change of track it makes is news (an alarm's), notified.
    func perform<Result: Sendable>(
        chosenByUser: Bool = true,
        _ command: @Sendable (inout PlayerEngine, Duration, Double) throws(EngineError) -> (Result, EngineOutput)
    ) throws(EngineError) -> Result {
        let before = inPlace { $0.queue.current }
        let (result, output) = try command(&engine, now, position)
        if chosenByUser { noteCommandedChange(from: before) }
        apply(output)
        return result
    }

    func perform(
        _ command: @Sendable (inout PlayerEngine, Duration, Double) throws(EngineError) -> EngineOutput
    ) throws(EngineError) {
        let before = inPlace { $0.queue.current }
        let output = try command(&engine, now, position)
        noteCommandedChange(from: before)
        apply(output)
    }

    /// A press is not tied to the connection that sent it: key bindings run one `qplay
    /// press` and, at key-up, another process's `qplay release`. A press that is never
    /// released ends itself at the engine's maximum hold.
    func press(_ button: Button) {
        let before = inPlace { $0.queue.current }
        let output = engine.press(button, now: now, position: position)
        noteCommandedChange(from: before)
        apply(output)
    }

    func release(_ button: Button) throws(EngineError) -> (action: ButtonAction, heldMilliseconds: Int) {
        let before = inPlace { $0.queue.current }
        let result = try engine.release(button, now: now, position: position)
        noteCommandedChange(from: before)
        apply(result.output)
        return (result.action, result.heldMilliseconds)
    }

    // MARK: Carrying out

    func apply(_ output: EngineOutput) {
        for command in output.audio {
            send(command)
        }
        saveResumePoints(output.resumePoints)
        saveListens(output.listens)
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
}
