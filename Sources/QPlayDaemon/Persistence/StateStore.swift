import Dispatch
import Foundation
import Synchronization
import SystemPackage

/// Keeps the player state in a SQLite database (`state.sqlite` in the data directory,
/// apart from the library index) so a restart — or a `kill -9` — finds the queue,
/// current entry, options and position again.
///
/// Writes happen on the store's own serial queue, so callers (the daemon's actor) never
/// wait for the disk: `save` and `savePosition` return at once. Saves arriving faster
/// than the disk are coalesced — only the newest state is written — and each write is
/// one transaction. Positions are debounced: written at most once per
/// `positionInterval`, and never later than that after being reported, so a `kill -9`
/// loses at most about one interval of position as long as the caller reports the
/// position regularly (e.g. on its one-second status tick) while playing.
/// `flush()` writes everything pending and waits (pause, stop, shutdown).
///
/// `State` is the engine's persistent state; it is stored as JSON tagged with
/// `stateVersion` so a future incompatible format is recognised instead of misread.
public final class StateStore<State: Codable & Sendable>: Sendable {
    public let path: FilePath
    public let positionInterval: Duration
    public let stateVersion: Int
    /// Where an unreadable (corrupt) database file was moved before a fresh one was
    /// created, or nil. The daemon should log it.
    public let movedAsideCorruptFile: FilePath?

    private let database: StateDatabase
    private let writer = DispatchQueue(label: "qplay.state-store")
    private let pending: Mutex<Pending>
    private let onError: @Sendable (StateStoreError) -> Void

    private struct Pending: Sendable {
        var state: State?
        var position: SavedPosition?
        /// A position waiting for the debounce timer.
        var deferredPosition: SavedPosition?
        var debouncer: PositionDebouncer
        var timerGeneration = 0
        var drainQueued = false
        var firstError: StateStoreError?
        var closed = false
    }

    /// Opens (creating and migrating as needed) the database at `path`. A file that is
    /// not a database is moved aside to `PATH.corrupt` and replaced by an empty one.
    /// `onError` hears about failed background writes (the daemon logs them); `flush()`
    /// throws them too.
    public init(
        path: FilePath, stateVersion: Int = 1, positionInterval: Duration = .seconds(1),
        onError: @escaping @Sendable (StateStoreError) -> Void = { _ in }
    ) throws(StateStoreError) {
        self.path = path
        self.stateVersion = stateVersion
        self.positionInterval = positionInterval
        self.onError = onError
        pending = Mutex(Pending(debouncer: PositionDebouncer(interval: positionInterval)))
        do {
            (database, movedAsideCorruptFile) = try Self.open(path)
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
    }

    private static func open(_ path: FilePath) throws -> (StateDatabase, FilePath?) {
        do {
            return (try StateDatabase(path: path), nil)
        } catch where StateDatabase.isCorruption(error) {
            let aside = FilePath(path.string + ".corrupt")
            for suffix in ["", "-wal", "-shm"] {
                _ = rename(path.string + suffix, aside.string + suffix)
            }
            return (try StateDatabase(path: path), aside)
        }
    }

    // MARK: Writing

    /// Saves `state` (and, when given, the position in the same transaction — use that at
    /// a track change, so state and position never disagree). Returns at once.
    public func save(_ state: State, position: SavedPosition? = nil) {
        let now = ContinuousClock.now
        let queueDrain = pending.withLock { pending -> Bool in
            guard !pending.closed else { return false }
            pending.state = state
            if let position {
                pending.position = position
                pending.deferredPosition = nil
                pending.debouncer.wroteDirectly(now: now)
            }
            return Self.markDrainQueued(&pending)
        }
        if queueDrain { writer.async { self.drain() } }
    }

    /// Reports the playback position. Written at once when the last position write is
    /// at least `positionInterval` old, else at the end of that interval (the newest
    /// value reported by then). `immediately` skips the debounce (pause, stop, seek).
    public func savePosition(entry: Int64?, seconds: Double, immediately: Bool = false) {
        let position = SavedPosition(entry: entry, seconds: seconds)
        let now = ContinuousClock.now
        let action = pending.withLock { pending -> PositionAction in
            guard !pending.closed else { return .none }
            let decision: PositionDebouncer.Decision
            if immediately {
                pending.debouncer.wroteDirectly(now: now)
                decision = .writeNow
            } else {
                decision = pending.debouncer.offer(now: now)
            }
            switch decision {
            case .writeNow:
                pending.position = position
                pending.deferredPosition = nil
                return Self.markDrainQueued(&pending) ? .drain : .none
            case .armTimer(let deadline):
                pending.deferredPosition = position
                pending.timerGeneration += 1
                return .arm(deadline, generation: pending.timerGeneration)
            case .waitForTimer:
                pending.deferredPosition = position
                return .none
            }
        }
        switch action {
        case .none: break
        case .drain: writer.async { self.drain() }
        case .arm(let deadline, let generation):
            let delay = max(Duration.zero, deadline - now)
            let nanoseconds = Int(delay.components.seconds) * 1_000_000_000
                + Int(delay.components.attoseconds / 1_000_000_000)
            writer.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
                self.timerFired(generation: generation)
            }
        }
    }

    /// Writes everything pending (state and any deferred position) and waits until it is
    /// on disk. Throws the first write error since the last flush.
    public func flush() throws(StateStoreError) {
        let now = ContinuousClock.now
        pending.withLock { pending in
            if let deferred = pending.deferredPosition {
                pending.position = deferred
                pending.deferredPosition = nil
            }
            pending.debouncer.wroteDirectly(now: now)
        }
        writer.sync { drain() }
        let error = pending.withLock { pending -> StateStoreError? in
            defer { pending.firstError = nil }
            return pending.firstError
        }
        if let error { throw error }
    }

    /// Flushes, then closes the database. Later saves are dropped.
    public func close() throws(StateStoreError) {
        defer {
            pending.withLock { $0.closed = true }
            writer.sync {
                do {
                    try database.close()
                } catch {
                    onError(.writeFailed("closing: \(error)"))
                }
            }
        }
        try flush()
    }

    private enum PositionAction {
        case none, drain
        case arm(ContinuousClock.Instant, generation: Int)
    }

    private static func markDrainQueued(_ pending: inout Pending) -> Bool {
        if pending.drainQueued { return false }
        pending.drainQueued = true
        return true
    }

    private func timerFired(generation: Int) {
        let now = ContinuousClock.now
        pending.withLock { pending in
            // A flush or an immediate write since the timer was armed took its value.
            guard generation == pending.timerGeneration, pending.debouncer.timerDeadline != nil else { return }
            pending.debouncer.timerFired(now: now)
            if let deferred = pending.deferredPosition {
                pending.position = deferred
                pending.deferredPosition = nil
            }
        }
        drain()
    }

    /// Runs on `writer`: writes the newest pending state and position in one transaction.
    private func drain() {
        let (state, position, closed) = pending.withLock { pending in
            defer {
                pending.state = nil
                pending.position = nil
                pending.drainQueued = false
            }
            return (pending.state, pending.position, pending.closed)
        }
        guard !closed, state != nil || position != nil else { return }
        do {
            let row = try state.map { StateDatabase.Row(version: stateVersion, payload: try Self.encode($0)) }
            try database.write(state: row, position: position)
        } catch {
            let failure = StateStoreError.writeFailed("\(error)")
            pending.withLock { if $0.firstError == nil { $0.firstError = failure } }
            onError(failure)
        }
    }

    // MARK: Reading

    /// The last committed state and position, or nil when no state was ever saved.
    /// (Pending writes are not seen: `flush()` first if that matters.)
    public func load() throws(StateStoreError) -> SavedPlayerState<State>? {
        let saved: (state: StateDatabase.Row?, position: SavedPosition?)
        do {
            saved = try database.read()
        } catch {
            throw .readFailed("\(error)")
        }
        guard let row = saved.state else { return nil }
        guard row.version == stateVersion else {
            throw .incompatibleState(saved: row.version, expected: stateVersion)
        }
        let state: State
        do {
            state = try JSONDecoder().decode(State.self, from: row.payload)
        } catch {
            throw .undecodableState("\(error)")
        }
        return SavedPlayerState(state: state, position: saved.position)
    }

    /// SQLite's consistency check of the file: `["ok"]` when sound. The daemon may log
    /// anything else at start-up.
    public func integrityCheck() throws(StateStoreError) -> [String] {
        do {
            return try database.integrityCheck()
        } catch {
            throw .readFailed("\(error)")
        }
    }

    private static func encode(_ state: State) throws -> Data {
        let encoder = JSONEncoder()
        // Sorted keys: the same state gives the same bytes, and `sqlite3` shows it readably.
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(state)
    }
}
