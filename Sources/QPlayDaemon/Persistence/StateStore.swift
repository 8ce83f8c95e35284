import Dispatch
import Foundation
import GRDB
import QPlayEngine
import QPlayLibrary
import Synchronization
import SystemPackage

/// Keeps the player state in a SQLite database (`state.sqlite` in the data directory,
/// apart from the library index) so a restart — or a `kill -9` — finds the queue,
/// current entry, options and position again.
///
/// `save` writes before it returns, in one transaction, only the rows the change since
/// the last save touched (see `StoredQueueRows`): the daemon saves each edit before
/// answering it, so an acknowledged edit is on disk. A failed save throws and changes
/// nothing on disk; the next save writes everything since the last one that worked.
///
/// Positions are not edits: they are written on the store's own serial queue, debounced
/// — at most once per `positionInterval`, and never later than that after being
/// reported, so a `kill -9` loses at most about one interval of position as long as the
/// caller reports the position regularly while playing. `flush()` writes a pending
/// position and waits (pause, stop, shutdown).
public final class StateStore: Sendable {
    public let path: FilePath
    public let positionInterval: Duration
    /// Where a file this build could not use was moved before a fresh one was created
    /// (a damaged file, or one written by a newer qplayd), or nil. The daemon logs it.
    public let movedAside: MovedAsideFile?

    /// Internal for the tables beside the player state (`StateStore+Alarms`, `StateStore+Bookmarks`).
    let database: StateDatabase
    private let writer = DispatchQueue(label: "qplay.state-store")
    private let pending: Mutex<Pending>
    /// The rows as committed; nil when they must be read again (at first, after a failure).
    private let stored = Mutex<StoredQueueRows?>(nil)
    private let onError: @Sendable (StateStoreError) -> Void
    /// Where entries stored by path find their tracks; nil: every entry is stored whole.
    private let tracks: (any QueueTrackSource)?
    /// The library index whose ids the listening tables use; nil: no paths are kept
    /// beside them (`StateStore+TrackPaths`).
    let library: LibraryIndex?

    private struct Pending: Sendable {
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
    /// not a database is moved aside to `PATH.corrupt-TIMESTAMP`, one written by a newer
    /// qplayd to `PATH.newer-TIMESTAMP` (kept for that version, never written over), and
    /// an empty one takes its place. `onError` hears about failed position writes (the
    /// daemon logs them); `flush()` throws them too. With `tracks`, entries naming files
    /// of the music directory are stored by path and found there again on `load()`; with
    /// `library`, listening data keeps the path of each track id it is written for.
    public init(
        path: FilePath, positionInterval: Duration = .seconds(1), tracks: (any QueueTrackSource)? = nil,
        library: LibraryIndex? = nil, onError: @escaping @Sendable (StateStoreError) -> Void = { _ in }
    ) throws(StateStoreError) {
        self.path = path
        self.tracks = tracks
        self.library = library
        self.positionInterval = positionInterval
        self.onError = onError
        pending = Mutex(Pending(debouncer: PositionDebouncer(interval: positionInterval)))
        do {
            (database, movedAside) = try Self.open(path)
        } catch {
            throw .cannotOpen(path: path, reason: DatabaseFiles.reason(error))
        }
    }

    private static func open(_ path: FilePath) throws -> (StateDatabase, MovedAsideFile?) {
        do {
            return (try StateDatabase(path: path), nil)
        } catch where DatabaseFiles.isCorruption(error) {
            let aside = try DatabaseFiles.moveAside(path, label: "corrupt")
            return (try StateDatabase(path: path), MovedAsideFile(path: aside, reason: "it is not a usable database"))
        } catch let error as StateDatabase.NewerFormat {
            let aside = try DatabaseFiles.moveAside(path, label: "newer")
            return (
                try StateDatabase(path: path),
                MovedAsideFile(path: aside, reason: "it was written by a newer qplayd: \(error)")
            )
        }
    }

    // MARK: Writing

    /// Writes what changed in `state` since the last save (and, when given, the position
    /// in the same transaction — use that at a track change, so state and position never
    /// disagree) and returns when it is committed. Returns the number of rows written.
    @discardableResult
    public func save(_ state: PersistedEngineState, position: SavedPosition? = nil) throws(StateStoreError) -> Int {
        let now = ContinuousClock.now
        let closed = pending.withLock { pending -> Bool in
            guard !pending.closed else { return true }
            if position != nil {
                pending.deferredPosition = nil
                pending.debouncer.wroteDirectly(now: now)
            }
            return false
        }
        guard !closed else { throw .closed }
        // On the writer queue, after any position write queued before: a stale position
        // must not land on top of the one written with this state.
        let result = writer.sync { Result { try write(state, position: position) } }
        do {
            return try result.get()
        } catch {
            throw .writeFailed(path: path, reason: DatabaseFiles.reason(error))
        }
    }

    /// Rows written at once after which the page cache is handed back.
    static let largeWrite = 1_000

    /// Runs on `writer`. A failure leaves the stored rows unknown: they are read again.
    private func write(_ state: PersistedEngineState, position: SavedPosition?) throws -> Int {
        try stored.withLock { stored throws -> Int in
            do {
                var rows = try stored ?? database.read { try StoredQueueRows.read($0) }
                stored = nil
                let written = try database.write { db in
                    let written = try rows.write(state, byPath: tracks != nil, db)
                    if let position { try StateDatabase.writePosition(position, db) }
                    return written
                }
                stored = rows
                // The pages a long playlist's load or clear went through: not kept.
                if written >= Self.largeWrite { database.releaseMemory() }
                return written
            } catch {
                stored = nil
                throw error
            }
        }
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

    /// The first failed position write since the last look (or `flush()`), cleared.
    public func takePositionWriteError() -> StateStoreError? {
        pending.withLock { pending in
            defer { pending.firstError = nil }
            return pending.firstError
        }
    }

    /// Flushes, then closes the database. Later saves are dropped.
    public func close() throws(StateStoreError) {
        defer {
            pending.withLock { $0.closed = true }
            writer.sync {
                do {
                    try database.close()
                } catch {
                    onError(.writeFailed(path: path, reason: "closing: \(DatabaseFiles.reason(error))"))
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

    /// Runs on `writer`: writes the newest pending position.
    private func drain() {
        let (position, closed) = pending.withLock { pending in
            defer {
                pending.position = nil
                pending.drainQueued = false
            }
            return (pending.position, pending.closed)
        }
        guard !closed, let position else { return }
        do {
            try database.writePosition(position)
        } catch {
            let failure = StateStoreError.writeFailed(path: path, reason: DatabaseFiles.reason(error))
            pending.withLock { if $0.firstError == nil { $0.firstError = failure } }
            onError(failure)
        }
    }

    // MARK: Reading

    /// The last committed state and position, or nil when no state was ever saved. A
    /// state of the first format (one JSON document) is carried over into rows here, in
    /// one transaction. (Pending positions are not seen: `flush()` first if that matters.)
    public func load() throws(StateStoreError) -> SavedPlayerState<PersistedEngineState>? {
        do {
            try carryOverFirstFormat()
        } catch let error as StateStoreError {
            throw error
        } catch {
            throw .readFailed(path: path, reason: DatabaseFiles.reason(error))
        }
        do {
            return try database.read { db -> SavedPlayerState<PersistedEngineState>? in
                guard let state = try StoredQueueRows.load(db, source: tracks) else { return nil }
                let position = try GRDB.Row.fetchOne(db, sql: "SELECT entry, seconds FROM playback_position WHERE id = 1")
                    .map { SavedPosition(entry: $0["entry"], seconds: $0["seconds"]) }
                return SavedPlayerState(state: state, position: position)
            }
        } catch {
            throw .readFailed(path: path, reason: DatabaseFiles.reason(error))
        }
    }

    /// The first format kept the whole state as one JSON document in `player_state`.
    private func carryOverFirstFormat() throws {
        try stored.withLock { stored in
            stored = nil
            try database.write { db in
                guard try PersistedEngineSettings.fetch(db) == nil,
                    let payload = try Data.fetchOne(db, sql: "SELECT payload FROM player_state WHERE id = 1")
                else { return }
                let legacy: EnginePersistentState
                do {
                    legacy = try JSONDecoder().decode(EnginePersistentState.self, from: payload)
                } catch {
                    throw StateStoreError.undecodableState(path: path, reason: "\(error)")
                }
                var rows = StoredQueueRows()
                _ = try rows.write(legacy.persisted, byPath: tracks != nil, db)
                try db.execute(sql: "DELETE FROM player_state")
            }
        }
    }

    /// SQLite's consistency check of the file: `["ok"]` when sound. The daemon may log
    /// anything else at start-up.
    public func integrityCheck() throws(StateStoreError) -> [String] {
        do {
            return try database.integrityCheck()
        } catch {
            throw .readFailed(path: path, reason: DatabaseFiles.reason(error))
        }
    }
}
