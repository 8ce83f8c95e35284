import Foundation
import GRDB
import QPlayEngine
import QPlayLibrary
import QPlayModel

/// The ids and sort keys of the `queue_entry` rows and the `player_settings` row as the
/// database holds them (tracks are not kept here: the engine has them). Saving a state
/// compares it with this and writes only the rows that differ, so an edit of a long
/// queue writes a few rows, and after a failed write (a rolled-back transaction) the
/// next save, compared with what was re-read, writes everything missed at once.
struct StoredQueueRows: Sendable {
    private var queue = OrderKeys()
    private var installed = OrderKeys()
    private var play = OrderKeys()
    private var rowIDs: Set<Int64> = []
    private var current: Int64?
    private var settings: PersistedEngineSettings?
    /// The engine's change counts of the lists as written; nil after a read.
    private var revisions: PersistedEngineState.Revisions?

    /// What the database holds now.
    static func read(_ db: Database) throws -> StoredQueueRows {
        var rows = StoredQueueRows()
        var queuePairs: [(id: Int64, key: Double)] = []
        var installedPairs: [(id: Int64, key: Double)] = []
        var playPairs: [(id: Int64, key: Double)] = []
        let cursor = try Row.fetchCursor(db, sql: "SELECT id, queue_key, installed_key, play_key FROM queue_entry")
        while let row = try cursor.next() {
            let id: Int64 = row[0]
            rows.rowIDs.insert(id)
            if let key: Double = row[1] { queuePairs.append((id, key)) }
            if let key: Double = row[2] { installedPairs.append((id, key)) }
            if let key: Double = row[3] { playPairs.append((id, key)) }
        }
        rows.queue = OrderKeys(stored: queuePairs)
        rows.installed = OrderKeys(stored: installedPairs)
        rows.play = OrderKeys(stored: playPairs)
        rows.settings = try PersistedEngineSettings.fetch(db)
        rows.current = rows.settings?.current
        return rows
    }

    /// Writes, in the caller's transaction, what differs between the stored rows and
    /// `state`, and takes `state` as the stored one. Returns the number of rows written.
    /// `byPath`: new entries naming library files are stored by path (`QueueEntryInserts`).
    /// After a throw this value no longer matches the database: read it again.
    mutating func write(_ state: PersistedEngineState, byPath: Bool, _ db: Database) throws -> Int {
        let sameCollection = revisions != nil && state.revisions?.collection == revisions?.collection
        let sameInstalled = revisions != nil && state.revisions?.installed == revisions?.installed
        let changes = [
            ("queue_key", sameCollection ? OrderKeys.Change() : queue.update(to: EntryIDs(state.collection))),
            ("installed_key", sameInstalled ? OrderKeys.Change() : installed.update(to: EntryIDs(state.installed))),
            ("play_key", sameInstalled ? OrderKeys.Change() : play.update(to: state.playOrder)),
        ]
        revisions = state.revisions
        let newCurrent = state.current?.id
        var written = 0

        var newIDs: Set<Int64> = []
        for (_, change) in changes {
            for assigned in change.assigned where !rowIDs.contains(assigned.id) { newIDs.insert(assigned.id) }
        }
        if let newCurrent, !rowIDs.contains(newCurrent) { newIDs.insert(newCurrent) }
        if !newIDs.isEmpty {
            let entries = Self.entries(newIDs, in: state)
            let queueKeys = Self.keys(of: entries, changes[0].1, queue)
            let installedKeys = Self.keys(of: entries, changes[1].1, installed)
            let playKeys = Self.keys(of: entries, changes[2].1, play)
            try QueueEntryInserts.insert(entries, byPath: byPath, keys: { position in
                QueueEntryInserts.Keys(
                    queue: queueKeys[position], installed: installedKeys[position], play: playKeys[position])
            }, db)
            rowIDs.formUnion(entries.lazy.map(\.id))
            written += entries.count
        }

        var deletions: Set<Int64> = []
        var candidates = changes.flatMap(\.1.removed)
        if let current, current != newCurrent { candidates.append(current) }
        for id in candidates where rowIDs.contains(id) {
            if !queue.contains(id), !installed.contains(id), !play.contains(id), id != newCurrent {
                deletions.insert(id)
            }
        }
        for (column, change) in changes {
            let update = try db.cachedStatement(sql: "UPDATE queue_entry SET \(column) = ? WHERE id = ?")
            for assigned in change.assigned where !newIDs.contains(assigned.id) {
                try update.execute(arguments: [assigned.key, assigned.id])
                written += 1
            }
            let cleared = change.removed.filter { rowIDs.contains($0) && !deletions.contains($0) }
            if !cleared.isEmpty {
                let clear = try db.cachedStatement(sql: "UPDATE queue_entry SET \(column) = NULL WHERE id BETWEEN ? AND ?")
                for run in IDRuns.runs(of: cleared) { try clear.execute(arguments: [run.lowerBound, run.upperBound]) }
                written += cleared.count
            }
        }
        if !deletions.isEmpty {
            let delete = try db.cachedStatement(sql: "DELETE FROM queue_entry WHERE id BETWEEN ? AND ?")
            for run in IDRuns.runs(of: deletions) { try delete.execute(arguments: [run.lowerBound, run.upperBound]) }
            rowIDs.subtract(deletions)
            written += deletions.count
        }
        current = newCurrent

        if settings != state.settings {
            try state.settings.upsert(db, format: StateDatabase.settingsFormat)
            settings = state.settings
            written += 1
        }
        return written
    }

    /// The key of each of `entries` in one list. A load's entries are the ones its change
    /// assigned, in the same order (ascending ids appended): their keys are taken as they
    /// come instead of looked up one by one.
    private static func keys(of entries: [QueueEntry], _ change: OrderKeys.Change, _ list: OrderKeys) -> [Double?] {
        if change.assigned.count == entries.count, zip(change.assigned, entries).allSatisfy({ $0.id == $1.id }) {
            return change.assigned.map(\.key)
        }
        return entries.map { list.key(of: $0.id) }
    }

    /// The entries of `state` with the given ids (the lists and the current entry).
    private static func entries(_ ids: Set<Int64>, in state: PersistedEngineState) -> [QueueEntry] {
        var missing = ids
        var found: [QueueEntry] = []
        found.reserveCapacity(ids.count)
        for list in [state.collection, state.installed] where !missing.isEmpty {
            // New entries are mostly appended: look from the end, stop when all are found.
            for entry in list.reversed() where missing.remove(entry.id) != nil {
                found.append(entry)
                if missing.isEmpty { break }
            }
        }
        if let current = state.current, missing.remove(current.id) != nil { found.append(current) }
        // Ascending ids append to the table's b-tree; the appended ones were found backwards.
        found.reverse()
        if zip(found, found.dropFirst()).contains(where: { $0.id > $1.id }) { found.sort { $0.id < $1.id } }
        return found
    }

    /// The stored state with its tracks, or nil when no state was ever saved. Entries
    /// stored by path take their tracks from `source` (`MissingQueueTrack` when there is
    /// no source); an entry whose track does not decode is left out
    /// (the engine repairs the lists).
    static func load(_ db: Database, source: (any QueueTrackSource)?) throws -> PersistedEngineState? {
        guard let settings = try PersistedEngineSettings.fetch(db) else { return nil }
        var byID: [Int64: QueueEntry] = [:]
        var byPath: [(id: Int64, path: [UInt8], trackID: Int64)] = []
        var queuePairs: [(Double, Int64)] = []
        var installedPairs: [(Double, Int64)] = []
        var playPairs: [(Double, Int64)] = []
        let decoder = JSONDecoder()
        let cursor = try Row.fetchCursor(
            db, sql: "SELECT id, track, path, track_id, queue_key, installed_key, play_key FROM queue_entry")
        while let row = try cursor.next() {
            let id: Int64 = row[0]
            let data: Data = row[1]
            if data.isEmpty, let path: Data = row[2] {
                byPath.append((id, [UInt8](path), row[3] ?? 0))
            } else {
                guard let track = try? decoder.decode(StoredTrack.self, from: data) else { continue }
                byID[id] = QueueEntry(id: id, track: track.track)
            }
            if let key: Double = row[4] { queuePairs.append((key, id)) }
            if let key: Double = row[5] { installedPairs.append((key, id)) }
            if let key: Double = row[6] { playPairs.append((key, id)) }
        }
        let paths = byPath.map { PathBytes.path($0.path) }
        let found = try source?.tracks(paths: paths, ids: byPath.map(\.trackID))
            ?? zip(paths, byPath).map { MissingQueueTrack.track(id: $1.trackID, path: $0) }
        for (stored, track) in zip(byPath, found) {
            byID[stored.id] = QueueEntry(id: stored.id, track: track)
        }
        func ordered(_ pairs: [(Double, Int64)]) -> [Int64] {
            pairs.sorted { $0.0 < $1.0 }.map(\.1).filter { byID[$0] != nil }
        }
        return PersistedEngineState(
            collection: ordered(queuePairs).compactMap { byID[$0] },
            installed: ordered(installedPairs).compactMap { byID[$0] },
            playOrder: ordered(playPairs),
            current: settings.current.flatMap { byID[$0] },
            settings: settings)
    }
}

extension PersistedEngineSettings {
    static func fetch(_ db: Database) throws -> PersistedEngineSettings? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT current, modified, volume, repeat_mode, shuffle, next_entry_id, random_state,
                        single, consume, queue_version
                    FROM player_settings WHERE id = 1
                    """)
        else { return nil }
        let randomState: Int64 = row["random_state"]
        let queueVersion: Int64 = row["queue_version"]
        return PersistedEngineSettings(
            current: row["current"], modified: row["modified"], volume: row["volume"],
            repeatMode: RepeatMode(rawValue: row["repeat_mode"]) ?? .off, shuffle: row["shuffle"],
            nextEntryID: row["next_entry_id"], randomState: UInt64(bitPattern: randomState),
            single: row["single"], consume: row["consume"], queueVersion: UInt64(bitPattern: queueVersion))
    }

    func upsert(_ db: Database, format: Int) throws {
        try db.execute(
            sql: """
                INSERT INTO player_settings
                    (id, format, current, modified, volume, repeat_mode, shuffle, next_entry_id, random_state,
                     single, consume, queue_version, saved_at)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET
                    format = excluded.format, current = excluded.current, modified = excluded.modified,
                    volume = excluded.volume, repeat_mode = excluded.repeat_mode, shuffle = excluded.shuffle,
                    next_entry_id = excluded.next_entry_id, random_state = excluded.random_state,
                    single = excluded.single, consume = excluded.consume,
                    queue_version = excluded.queue_version, saved_at = excluded.saved_at
                """,
            arguments: [
                format, current, modified, volume, repeatMode.rawValue, shuffle, nextEntryID,
                Int64(bitPattern: randomState), single, consume, Int64(bitPattern: queueVersion),
                Date().timeIntervalSince1970,
            ])
    }
}
