import Foundation
import GRDB
import QPlayLibrary
import SystemPackage

/// The SQLite file behind `StateStore`, in WAL mode with synchronous=NORMAL: every
/// committed transaction survives a `kill -9` (a power cut may lose the last commits,
/// never corrupt the file). The log is checkpointed on a connection of its own
/// (`WALCheckpointer`), never inside a save.
///
/// Tables: `queue_entry` (one row per entry the player holds: its track and its sort key
/// in each list it belongs to), `player_settings` (one row: current entry, options,
/// modified flag, single, consume, queue version), `playback_position` (one row, written apart and debounced),
/// `alarm` (the alarm clock's alarms, see `StateStore+Alarms`), `bookmark` and
/// `resume_point` (by track id), `track_figures` (plays, skips, rating, first seen; by
/// track id), `sticker` (MPD stickers: name and value by track id), `track_path` and
/// `library_binding` (the file behind each of those track ids, and the index they are of), and
/// `player_state` (the first format: the whole state as one JSON document; read once to
/// carry it over, then emptied).
final class StateDatabase: Sendable {
    let path: FilePath
    private let queue: DatabaseQueue
    /// Checkpoints the log off the writer's path (see `WALCheckpointer`).
    private let checkpointer: WALCheckpointer
    private let lock = NSLock()
    /// Set by `close()`, under `lock`.
    nonisolated(unsafe) private var isClosed = false

    /// The `player_settings.format` this build writes and reads; a higher one was
    /// written by a newer qplayd.
    static let settingsFormat = 1
    /// The `player_state.version` of the first format.
    static let legacyStateVersion = 1

    /// The file was written by a newer qplayd: schema or format this build does not know.
    struct NewerFormat: Error, CustomStringConvertible {
        var detail: String
        var description: String { detail }
    }

    init(path: FilePath) throws {
        self.path = path
        DatabaseFiles.makePrivate(path)
        var configuration = Configuration()
        configuration.journalMode = .wal
        // Another process (sqlite3, a test) may read at the same moment: wait, don't fail.
        configuration.busyMode = .timeout(5)
        configuration.label = "qplay.state"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Room for a 10,000-entry load (~4 MB of rows) in one transaction: with
            // SQLite's default 2 MB the pager spilled pages to the WAL mid-transaction and
            // read them back. The pages are handed back after a large write.
            try db.execute(sql: "PRAGMA cache_size = -16000")
        }
        let queue = try Self.openMigrated(path, configuration)
        do {
            checkpointer = try WALCheckpointer(path: path.string, configuration: configuration)
        } catch {
            try? queue.close()
            throw error
        }
        self.queue = queue
        queue.inDatabase { checkpointer.takeCheckpoints(of: $0) }
    }

    /// Opens the file and brings its schema up to date. Another opener of the same new
    /// file at the same moment (a second process, sqlite3, a test) makes SQLite answer
    /// "locked" to switching it to WAL, or fails one of our migration steps with "already
    /// exists" because the other opener committed that step first. Either way the other
    /// opener got further, and a fresh start sees more of the schema in place; the tries
    /// are bounded by the number of steps.
    private static func openMigrated(_ path: FilePath, _ configuration: Configuration) throws -> DatabaseQueue {
        var tries = 0
        while true {
            tries += 1
            var opened: DatabaseQueue?
            do {
                let queue = try DatabaseQueue(path: path.string, configuration: configuration)
                opened = queue
                try checkNotNewer(queue)
                try migrator.migrate(queue)
                try checkNotNewer(queue)
                return queue
            } catch let error as DatabaseError
                where tries <= migrator.migrations.count + 2
                && [.SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_ERROR].contains(error.resultCode)
            {
                try? opened?.close()
                usleep(UInt32.random(in: 1_000...10_000))
            } catch {
                try? opened?.close()
                throw error
            }
        }
    }

    private static func checkNotNewer(_ queue: DatabaseQueue) throws {
        try queue.read { db in
            guard try db.tableExists("grdb_migrations") else { return }
            if try Self.migrator.hasBeenSuperseded(db) {
                let known = Set(Self.migrator.migrations)
                let unknown = try Self.migrator.appliedIdentifiers(db).subtracting(known).sorted()
                throw NewerFormat(detail: "it has schema migrations this qplayd does not know (\(unknown.joined(separator: ", ")))")
            }
            if try db.tableExists("player_settings"),
                let format = try Int.fetchOne(db, sql: "SELECT format FROM player_settings WHERE id = 1"),
                format > Self.settingsFormat
            {
                throw NewerFormat(detail: "its player settings have format \(format), this qplayd reads \(Self.settingsFormat)")
            }
            if try db.tableExists("player_state"),
                let version = try Int.fetchOne(db, sql: "SELECT version FROM player_state WHERE id = 1"),
                version > Self.legacyStateVersion
            {
                throw NewerFormat(detail: "its player state has version \(version), this qplayd reads \(Self.legacyStateVersion)")
            }
        }
    }

    /// Versioned schema; add `v10`… below, never edit a shipped migration.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE player_state (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        version INTEGER NOT NULL,
                        payload BLOB NOT NULL,
                        saved_at REAL NOT NULL
                    );
                    CREATE TABLE playback_position (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        entry INTEGER,
                        seconds REAL NOT NULL,
                        saved_at REAL NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v2") { db in
            // One row per entry; a NULL key means "not in that list". The keys only
            // order: an edit gives new or moved entries keys between their neighbours'.
            try db.execute(
                sql: """
                    CREATE TABLE queue_entry (
                        id INTEGER PRIMARY KEY,
                        track BLOB NOT NULL,
                        queue_key REAL,
                        installed_key REAL,
                        play_key REAL
                    );
                    CREATE TABLE player_settings (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        format INTEGER NOT NULL,
                        current INTEGER,
                        modified INTEGER NOT NULL,
                        volume INTEGER NOT NULL,
                        repeat_mode TEXT NOT NULL,
                        shuffle INTEGER NOT NULL,
                        next_entry_id INTEGER NOT NULL,
                        random_state INTEGER NOT NULL,
                        saved_at REAL NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v3") { db in
            // Single and consume (MPD's modes) and the collection's edit count. A database
            // from before loads with both modes off and version 0.
            try db.execute(
                sql: """
                    ALTER TABLE player_settings ADD COLUMN single INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE player_settings ADD COLUMN consume INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE player_settings ADD COLUMN queue_version INTEGER NOT NULL DEFAULT 0;
                    """)
        }
        migrator.registerMigration("v4") { db in
            // The alarm clock. `next_due` (Unix seconds) is when each alarm rings next,
            // kept so that a start-up finds what it missed while qplayd was down.
            try db.execute(
                sql: """
                    CREATE TABLE alarm (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        time TEXT NOT NULL,
                        days TEXT NOT NULL,
                        selection TEXT,
                        volume INTEGER,
                        fade_in REAL,
                        next_due REAL NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v5") { db in
            // Bookmarks and resume points, keyed by library track id (`BookmarkRows`).
            try db.execute(
                sql: """
                    CREATE TABLE bookmark (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        track INTEGER NOT NULL,
                        position REAL NOT NULL,
                        name TEXT,
                        created REAL NOT NULL
                    );
                    CREATE INDEX bookmark_track ON bookmark (track);
                    CREATE TABLE resume_point (
                        track INTEGER PRIMARY KEY,
                        position REAL NOT NULL,
                        saved_at REAL NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v6") { db in
            // Play counts, ratings and when each track was first seen, by library track
            // id (`StateStore+TrackFigures`). Times in Unix seconds; `last_played` NULL:
            // never played.
            try db.execute(
                sql: """
                    CREATE TABLE track_figures (
                        track INTEGER PRIMARY KEY,
                        plays INTEGER NOT NULL DEFAULT 0,
                        skips INTEGER NOT NULL DEFAULT 0,
                        last_played REAL,
                        rating INTEGER NOT NULL DEFAULT 0,
                        added REAL
                    );
                    """)
        }
        migrator.registerMigration("v7") { db in
            // MPD stickers: any name and value a client sets on a song, by library track id
            // (`StateStore+Stickers`), so a rescan keeps them while the file stays.
            try db.execute(
                sql: """
                    CREATE TABLE sticker (
                        track INTEGER NOT NULL,
                        name TEXT NOT NULL,
                        value TEXT NOT NULL,
                        PRIMARY KEY (track, name)
                    );
                    CREATE INDEX sticker_name ON sticker (name);
                    """)
        }
        migrator.registerMigration("v8") { db in
            // Entries naming files of the music directory are kept by path and track id
            // with an empty `track` (`QueueEntryInserts`); `track` holds JSON otherwise.
            try db.execute(
                sql: """
                    ALTER TABLE queue_entry ADD COLUMN path BLOB;
                    ALTER TABLE queue_entry ADD COLUMN track_id INTEGER;
                    """)
        }
        migrator.registerMigration("v9") { db in
            // The file behind each track id the tables above keep data for, and which
            // library index those ids are of (`StateStore+TrackPaths`): an index built
            // again from nothing numbers its tracks afresh, and the data follows the file.
            try db.execute(
                sql: """
                    CREATE TABLE track_path (
                        track INTEGER PRIMARY KEY,
                        path BLOB NOT NULL
                    );
                    CREATE TABLE library_binding (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        identity TEXT NOT NULL
                    );
                    """)
        }
        return migrator
    }

    // MARK: Writing

    /// Runs `body` in one write transaction.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try whileOpen { try queue.write(body) }
    }

    static func writePosition(_ position: SavedPosition, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO playback_position (id, entry, seconds, saved_at) VALUES (1, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET
                    entry = excluded.entry, seconds = excluded.seconds, saved_at = excluded.saved_at
                """,
            arguments: [position.entry, position.seconds, Date().timeIntervalSince1970])
    }

    func writePosition(_ position: SavedPosition) throws {
        try whileOpen { try queue.write { db in try Self.writePosition(position, db) } }
    }

    // MARK: Reading

    /// Frees the page cache (SQLite's `sqlite3_db_release_memory`).
    func releaseMemory() {
        try? whileOpen { queue.releaseMemory() }
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try whileOpen { try queue.read(body) }
    }

    /// SQLite's own consistency check: `["ok"]` for a sound file.
    func integrityCheck() throws -> [String] {
        try whileOpen { try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") } }
    }

    /// The database was closed (qplayd is stopping): a task still running then — a scan's
    /// follow-up, a frontend's last request — gets this error instead of a closed
    /// connection, which GRDB does not survive.
    struct Closed: Error, CustomStringConvertible {
        var description: String { "the state database is closed (qplayd is stopping)" }
    }

    /// Runs `body` while the database is open. Every use and the close take one lock, so
    /// none starts on a closed connection; the connection serializes them anyway.
    private func whileOpen<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { throw Closed() }
        return try body()
    }

    /// Closes the writer (after any use under way), then the checkpointer, which
    /// checkpoints the whole log. Later uses throw `Closed`.
    func close() throws {
        defer { checkpointer.close() }
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { return }
        isClosed = true
        try queue.close()
    }
}
