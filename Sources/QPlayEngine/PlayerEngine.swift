import QPlayModel

/// The queue and player state machine (docs/BEHAVIOUR.md, Queue rules). Pure: no I/O, no threads, no clock.
/// Time comes in as `now` (monotonic, any origin), the current track's position as
/// `position` (seconds, read by the caller from the audio side). Every call returns the
/// audio commands to carry out, in order, and the change events to publish.
///
/// The user edits `collection`; the player follows `installed`. An edit sets `modified`;
/// every track change installs a modified collection first. The audio side always holds
/// the gapless successor the next track change would pick (`pending`), re-announced
/// after every call that changes it.
public struct PlayerEngine: Sendable {
    public let configuration: EngineConfiguration

    var collection: [QueueEntry] = [] { didSet { listRevisions.collection &+= 1 } }
    var installed: InstalledQueue = .empty {
        didSet {
            // A plan's queue lists its ids only once it is installed (`InstalledQueue`).
            if !installed.isMaterialized { installed = installed.materialized() }
            listRevisions.installed &+= 1
        }
    }
    /// Counts changes of the two lists, so saving after an edit that left a list alone
    /// does not look through it (the observers modify in place: no copy).
    var listRevisions = PersistedEngineState.Revisions()
    var modified = false
    var current: QueueEntry?
    var state: PlaybackState = .stopped
    var volume = 100
    var repeatMode: RepeatMode = .off
    var shuffle = false
    var single = false
    var consume = false
    /// Edits of the collection so far, persisted (`QueueSnapshot.version`). Not
    /// `listRevisions.collection`: that one also counts restores and is bookkeeping.
    var queueVersion: UInt64 = 0
    var nextEntryID: EntryID = 1
    var random: ShuffleRandom

    /// Token of the last `play` sent, or of the successor that then started.
    var currentToken: UInt64 = 0
    var lastToken: UInt64 = 0
    /// What the audio side was told to play next, nil while nothing is loaded.
    var pending: PendingSuccessor?
    /// Successor tokens announced since the last track change, by entry: a successor the
    /// audio side started just before it received a replacement is still recognised.
    var announced: [UInt64: EntryID] = [:]
    /// Entries the audio side could not play since a track last started; automatic
    /// advancing passes over them so a queue of broken files cannot loop.
    var unplayable: Set<EntryID> = []
    var lastError: String?

    var press: ButtonPress?
    /// The sleep timer (`PlayerEngine+Sleep`); not persisted: a restart comes back paused.
    var sleep: SleepTimer?
    var autoReleased: AutoReleasedPress?
    /// Where long tracks were left, by track (`PlayerEngine+Resume`); the daemon keeps
    /// them in its database and restores them.
    public internal(set) var resumePoints: [TrackID: Double] = [:]
    /// What the loaded request has been heard (`PlayerEngine+Listening`), for its play
    /// and skip counts; nil when nothing is loaded.
    var listening: ListeningTally?

    /// The last position any call reported; what `persistentState` saves.
    var lastKnownPosition: Double = 0
    /// The plan of what follows the current entry while none is announced, with the
    /// state it was made in (`refreshUpcoming()`).
    var upcoming: (key: PlanningKey, entry: QueueEntry?)?
    /// Where the current entry was last found in the collection; only a hint
    /// (`collectionIndex(of:near:)` checks it), kept by track changes and
    /// `refreshUpcoming()`.
    var currentIndexHint: Int?

    public init(configuration: EngineConfiguration = .init(), restoring saved: EnginePersistentState? = nil) {
        self.configuration = configuration
        random = ShuffleRandom(state: configuration.shuffleSeed ?? UInt64.random(in: .min ... .max))
        if let saved { restore(saved) }
    }

    public init(configuration: EngineConfiguration = .init(), restoring saved: PersistedEngineState?) {
        self.configuration = configuration
        random = ShuffleRandom(state: configuration.shuffleSeed ?? UInt64.random(in: .min ... .max))
        if let saved { restore(saved) }
    }

    // MARK: - Reading

    /// `duration`: the length the audio side measured for the current request, when it
    /// has one: the index may be stale (a file replaced since the last scan), and the
    /// position is clamped to what plays, not to what was indexed.
    public func status(position: Double, duration measured: Double? = nil) -> EngineStatus {
        let duration = measured ?? current?.track.duration
        return EngineStatus(
            state: state,
            entry: current,
            index: current.flatMap { collectionIndex(of: $0.id, near: currentIndexHint) },
            position: state == .stopped ? 0 : clampedPosition(position, to: duration),
            duration: duration,
            queueLength: collection.count,
            queueModified: modified,
            volume: volume,
            repeatMode: repeatMode,
            shuffle: shuffle,
            single: single,
            consume: consume,
            next: nextEntry,
            queueVersion: queueVersion,
            seeking: press?.phase == .scanning ? press!.direction : .none,
            lastError: lastError)
    }

    /// What the current track's end would move to: the announced successor's change
    /// while something is loaded (no second planning per status), else the plan kept by
    /// `refreshUpcoming()` for this state, else planned afresh.
    private var nextEntry: QueueEntry? {
        if isLoaded, let pending { return pending.change.entry }
        guard current != nil else { return nil }
        if let upcoming, upcoming.key == planningKey { return upcoming.entry }
        return plan(.trackEnded).entry
    }

    /// Plans what follows the current entry once per state while nothing announced it
    /// (stopped): such a plan installs a modified collection, which with shuffle on
    /// costs about 0.4 ms at 6,000 entries — too much for every `status` of a status
    /// bar. A service calls this before reading statuses; it plans only when something
    /// the plan depends on changed.
    public mutating func refreshUpcoming() {
        refreshCurrentIndex()
        guard current != nil, !(isLoaded && pending != nil) else { return }
        let key = planningKey
        guard upcoming?.key != key else { return }
        upcoming = (key, plan(.trackEnded).entry)
    }

    /// Finds the current entry's place in the collection again, starting where it was:
    /// after a track change or an edit it is mostly there or next to it, and a look
    /// through a long collection (a track per entry) would cost every `status`.
    mutating func refreshCurrentIndex(after trackChange: Bool = false) {
        let hint = trackChange ? currentIndexHint.map { $0 + 1 } : currentIndexHint
        currentIndexHint = current.flatMap { collectionIndex(of: $0.id, near: hint) }
    }

    /// The place of `id` in the collection: `hint` or a neighbour of it when that holds
    /// the entry, else found by a look through the collection.
    func collectionIndex(of id: EntryID, near hint: Int?) -> Int? {
        if let hint {
            for guess in [hint, hint + 1, hint - 1] where collection.indices.contains(guess) {
                if collection[guess].id == id { return guess }
            }
        }
        return collection.firstIndex { $0.id == id }
    }

    /// Everything `plan(.trackEnded)` reads: equal keys, equal plans.
    struct PlanningKey: Equatable, Sendable {
        var lists: PersistedEngineState.Revisions
        var modified: Bool
        var current: EntryID?
        var repeatMode: RepeatMode
        var shuffle: Bool
        var single: Bool
        var consume: Bool
        var random: ShuffleRandom
        var unplayable: Set<EntryID>
    }

    var planningKey: PlanningKey {
        PlanningKey(
            lists: listRevisions, modified: modified, current: current?.id, repeatMode: repeatMode,
            shuffle: shuffle, single: single, consume: consume, random: random, unplayable: unplayable)
    }

    /// Playing, paused or stopped, without the rest of `status` (which plans what comes
    /// next when stopped).
    public var playbackState: PlaybackState { state }

    /// The token of the request the engine holds for now-playing (the audio side's
    /// reports and snapshot name it), nil when nothing is loaded. A snapshot of another
    /// token describes a moment the engine has not caught up with, or has left behind.
    public var currentRequestToken: UInt64? {
        isLoaded ? currentToken : nil
    }

    public var queue: QueueSnapshot {
        QueueSnapshot(entries: collection, current: current?.id, modified: modified, version: queueVersion)
    }

    /// When the next `tick` is due: the tap threshold of a pending press (the scan
    /// starts then), else the maximum hold of a held button; or the sleep timer's
    /// deadline or the end of its fade, whichever comes first. Nil when nothing waits.
    public var nextDeadline: Duration? {
        let pressDeadline = press.map { press in
            press.phase == .pending
                ? press.pressedAt + configuration.tapThreshold
                : press.pressedAt + configuration.maxHold
        }
        return [pressDeadline, sleepDeadline].compactMap { $0 }.min()
    }

    // MARK: - Helpers shared by the command files

    var isLoaded: Bool {
        state != .stopped && current != nil
    }

    func clampedPosition(_ position: Double, to duration: Double? = nil) -> Double {
        guard position.isFinite else { return 0 }
        var result = max(0, position)
        if let duration = duration ?? current?.track.duration, duration > 0 { result = min(result, duration) }
        return result
    }

    mutating func makeToken() -> UInt64 {
        lastToken += 1
        return lastToken
    }

    mutating func makeEntries(_ tracks: [Track]) -> [QueueEntry] {
        tracks.map { track in
            defer { nextEntryID += 1 }
            return QueueEntry(id: nextEntryID, track: track)
        }
    }

    /// Makes a change computed by `plan` the engine's state.
    mutating func commit(_ change: TrackChange, into output: inout EngineOutput) {
        // Most changes keep the installed queue: assigning it anyway would count a change
        // of the list, and the next save would compare the whole queue with the stored
        // rows. Equal arrays that share storage compare in O(1).
        if change.queue != installed { installed = change.queue }
        random = change.random
        if change.installs {
            modified = false
            output.notify(.queue)
        }
        if let consumed = change.consumed, let index = collectionIndex(of: consumed, near: currentIndexHint) {
            collection.remove(at: index)
            queueVersion &+= 1
            output.notify(.queue)
        }
        current = change.entry
        refreshCurrentIndex(after: true)
        announced = [:]
        output.notify(.player)
    }

    /// Lets go of the announced change's queue before the collection is edited in place.
    /// While the collection is modified, the plan behind the announced successor installs
    /// it, so that queue shares the collection's storage and the edit would copy the
    /// whole collection (about 25 ms at 100,000 entries). Every edit plans again right
    /// after (`announceSuccessor`, or a track change), so nothing reads the dropped queue.
    mutating func releasePlannedQueue() {
        pending?.change.queue = .empty
    }

    /// Tells the audio side to play `entry` now (with a fresh token), then its successor;
    /// from `position`, else where the track resumes (0 for most).
    mutating func load(_ entry: QueueEntry, from position: Double? = nil, into output: inout EngineOutput) {
        let request = PlaybackRequest(token: makeToken(), entry: entry)
        currentToken = request.token
        let start = position ?? resumeStart(for: entry.track)
        lastKnownPosition = start
        beginVisit(of: entry.track, at: start)
        output.emit(.play(request, from: start, paused: state == .paused))
        pending = nil
        announced = [:]
        announceSuccessor(into: &output, force: true)
    }

    /// Recomputes what the next track change would play and sends `setNext` when that
    /// differs from what the audio side holds (always when `force`, after a `play`).
    mutating func announceSuccessor(into output: inout EngineOutput, force: Bool = false) {
        guard isLoaded else {
            pending = nil
            return
        }
        let change = plan(.trackEnded)
        let previous = pending?.request
        var request: PlaybackRequest?
        // A successor that resumes mid-track is not joined gaplessly (the audio side
        // starts successors at 0): the track ends, and `audioFinished` plays it with a
        // `play` from its point.
        if let entry = change.entry, !change.stops, resumeStart(for: entry.track) == 0 {
            if let previous, previous.entry.id == entry.id, !force {
                request = previous
            } else {
                request = PlaybackRequest(token: makeToken(), entry: entry)
            }
        }
        pending = PendingSuccessor(change: change, request: request)
        if force || request != previous {
            output.emit(.setNext(request))
            if let request { announced[request.token] = request.entry.id }
        }
    }

    /// A track change: commit it, then load the new entry the way the player was going
    /// (playing or paused; stopped stays stopped with the new entry as now-playing).
    /// `leavesCurrent` is false when the caller has just set a stopped player playing:
    /// the stopped track's point was taken when it stopped, and leaving it again at the
    /// stopped position (0) would forget it. `skipping`: the change is a next, a
    /// next-tap, a jump or the removal of the playing entry, which count skips.
    mutating func perform(
        _ change: TrackChange, leavesCurrent: Bool = true, skipping: Bool = false, into output: inout EngineOutput
    ) {
        let wasLoaded = isLoaded
        if leavesCurrent {
            leaveVisit(at: lastKnownPosition, skipping: skipping, into: &output)
            leaveCurrent(at: lastKnownPosition, into: &output)
        }
        commit(change, into: &output)
        if let entry = change.entry {
            if state != .stopped { load(entry, into: &output) }
        } else {
            endQueue(into: &output, stopAudio: wasLoaded)
        }
    }

    /// The queue has ended: stopped, nothing playing, the queue stays.
    mutating func endQueue(into output: inout EngineOutput, stopAudio: Bool) {
        cancelScan(into: &output)
        state = .stopped
        current = nil
        pending = nil
        listening = nil
        if stopAudio { output.emit(.stop) }
        // Nothing left to put to sleep.
        endSleepFade(into: &output)
        sleepReachedTrackEnd(into: &output)
        output.notify(.player)
    }

    /// Single mode's stop between two tracks: `current` is already the entry that comes
    /// next, so `play` starts it; nothing of it has been requested.
    mutating func stopBeforeCurrent(into output: inout EngineOutput, stopAudio: Bool) {
        cancelScan(into: &output)
        pending = nil
        if pausesAtTrackEnd, let current {
            // The sleep timer's end of track: paused on the next entry at 0:00, loaded
            // paused so nothing of it is heard (the `play` replaces a stream that went on).
            state = .paused
            sleepReachedTrackEnd(into: &output)
            load(current, into: &output)
            output.notify(.player)
            return
        }
        state = .stopped
        if stopAudio { output.emit(.stop) }
        output.notify(.player)
    }

    /// A command other than the buttons moves the player elsewhere: a running scan ends,
    /// and the button's later release only reports.
    mutating func cancelScan(into output: inout EngineOutput) {
        guard press?.phase == .scanning else { return }
        press?.phase = .holding
        output.emit(.endScan)
        output.notify(.player)
    }
}
