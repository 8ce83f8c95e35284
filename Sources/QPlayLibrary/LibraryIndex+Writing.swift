import Foundation
import GRDB
import QPlayModel

/// What the index knows of a file, enough to tell whether it changed.
struct KnownFile: Sendable {
    var id: TrackID
    var size: Int64
    var modificationTime: Int64
}

/// One parsed file ready to be written.
struct IndexedFile: Sendable {
    var track: Track
    var pathBytes: [UInt8]
}

extension LibraryIndex {
    /// Every indexed file by its relative path bytes.
    func knownFiles() throws -> [Data: KnownFile] {
        try pool.read { db in
            var known: [Data: KnownFile] = [:]
            let cursor = try Row.fetchCursor(db, sql: "SELECT path, id, file_size, mtime FROM track")
            while let row = try cursor.next() {
                known[row[0]] = KnownFile(id: row[1], size: row[2], modificationTime: row[3])
            }
            return known
        }
    }

    /// Writes one batch in one transaction: inserts or updates `files` (ids kept for
    /// known paths), deletes `removals`, remembers `skips` (replacing what was known of
    /// their paths), forgets the skips at `forgetting`, and stores `lastScan` when given.
    /// Moves the generation (`LibraryIndex.generation`) only when tracks may change.
    func write(
        _ files: [IndexedFile], removing removals: [TrackID] = [], remembering skips: [SkippedFile] = [],
        forgetting forgotten: [[UInt8]] = [], lastScan: ScanSummary? = nil
    ) throws {
        try pool.write { db in
            // Rows this batch inserts get ids above every id handed out before
            // (AUTOINCREMENT); updated rows keep theirs, below it.
            let firstNewID = try Self.lastAssignedTrackID(db) + 1
            let upsert = try db.cachedStatement(sql: TrackRow.upsert)
            for file in Self.lastOfEachPath(files) {
                try upsert.execute(arguments: TrackRow.upsertArguments(file.track, pathBytes: file.pathBytes))
            }
            if !files.isEmpty {
                // Before the deletes below, whose trigger removes the entries it expects.
                try db.execute(sql: Self.indexNewTitles, arguments: [firstNewID])
                try db.execute(sql: Self.indexNewTags, arguments: [firstNewID])
            }
            if !removals.isEmpty {
                let delete = try db.cachedStatement(sql: "DELETE FROM track WHERE id = ?")
                for id in removals { try delete.execute(arguments: [id]) }
            }
            if !skips.isEmpty {
                let remember = try db.cachedStatement(
                    sql: "INSERT OR REPLACE INTO skipped_file (path, file_size, mtime, reason) VALUES (?, ?, ?, ?)")
                for skip in skips {
                    try remember.execute(
                        arguments: [Data(skip.pathBytes), skip.size, skip.modificationTime, skip.reason])
                }
            }
            if !forgotten.isEmpty {
                let forget = try db.cachedStatement(sql: "DELETE FROM skipped_file WHERE path = ?")
                for path in forgotten { try forget.execute(arguments: [Data(path)]) }
            }
            // Only a batch that may change tracks makes the search table stale: a rescan
            // that found nothing new keeps the table it had (no rebuild, no SQL answers).
            if !files.isEmpty || !removals.isEmpty { try db.execute(sql: Self.bumpGeneration) }
            if let lastScan {
                let record = LastScanRecord(summary: lastScan, finished: Date().timeIntervalSince1970)
                try db.execute(
                    sql: "INSERT OR REPLACE INTO library_info (key, value) VALUES ('last_scan', ?)",
                    arguments: [try JSONEncoder().encode(record)])
            }
        }
    }

    /// The trigram entries of rows from an id on (what the dropped insert trigger wrote
    /// row by row; see migration "v4").
    static let indexNewTitles = "INSERT INTO track_title_fts (rowid, f_title) SELECT id, f_title FROM track WHERE id >= ?"
    static let indexNewTags = """
        INSERT INTO track_tags_fts (rowid, f_artist, f_album, f_album_artist, f_genre)
        SELECT id, f_artist, f_album, f_album_artist, f_genre FROM track WHERE id >= ?
        """

    /// The highest track id ever assigned (0 before the first row).
    static func lastAssignedTrackID(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'track'") ?? 0
    }

    /// `files` with one entry per path, the last: a path inserted and then updated in the
    /// same batch would have the update trigger delete trigram entries not written yet.
    static func lastOfEachPath(_ files: [IndexedFile]) -> [IndexedFile] {
        var seen = Set<[UInt8]>(minimumCapacity: files.count)
        var kept: [IndexedFile] = []
        kept.reserveCapacity(files.count)
        for file in files.reversed() where seen.insert(file.pathBytes).inserted { kept.append(file) }
        return kept.count == files.count ? files : kept.reversed()
    }

    /// Claims the index for one scan; false when another scan holds it.
    func beginScan() -> Bool {
        scanning.withLock { busy in
            if busy { return false }
            busy = true
            return true
        }
    }

    func endScan() {
        scanning.withLock { $0 = false }
        // A scan leaves the writer's page cache full (SQLite's 2 MB) and the heap holding
        // the parsers' scratch, and the daemon may then idle for days: give both back.
        pool.writeWithoutTransaction { $0.releaseMemory() }
        MemoryTrim.releaseFreeMemory()
    }
}
