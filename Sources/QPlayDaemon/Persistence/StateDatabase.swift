import Foundation
import GRDB
import SystemPackage

/// The SQLite file behind `StateStore`: one row of player state (an encoded blob) and one
/// row of playback position, in WAL mode so every committed transaction survives a
/// `kill -9` (synchronous=NORMAL: a power cut may lose the last commits, never corrupt).
final class StateDatabase: Sendable {
    let path: FilePath
    private let queue: DatabaseQueue

    struct Row: Sendable {
        var version: Int
        var payload: Data
    }

    init(path: FilePath) throws {
        self.path = path
        var configuration = Configuration()
        configuration.journalMode = .wal
        // Another process (sqlite3, a test) may read at the same moment: wait, don't fail.
        configuration.busyMode = .timeout(5)
        configuration.label = "qplay.state"
        queue = try DatabaseQueue(path: path.string, configuration: configuration)
        do {
            try Self.migrator.migrate(queue)
        } catch {
            // Two processes opening a new file at once both see no schema; the loser's
            // migration rolls back, and a second look finds the winner's schema applied.
            guard try !queue.read({ try Self.migrator.hasCompletedMigrations($0) }) else { return }
            try Self.migrator.migrate(queue)
        }
    }

    /// Versioned schema; add `v2`… below, never edit a shipped migration.
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
        return migrator
    }

    /// Writes whichever of the two is given, in one transaction.
    func write(state: Row?, position: SavedPosition?) throws {
        let now = Date().timeIntervalSince1970
        try queue.write { db in
            if let state {
                try db.execute(
                    sql: """
                        INSERT INTO player_state (id, version, payload, saved_at) VALUES (1, ?, ?, ?)
                        ON CONFLICT(id) DO UPDATE SET
                            version = excluded.version, payload = excluded.payload, saved_at = excluded.saved_at
                        """,
                    arguments: [state.version, state.payload, now])
            }
            if let position {
                try db.execute(
                    sql: """
                        INSERT INTO playback_position (id, entry, seconds, saved_at) VALUES (1, ?, ?, ?)
                        ON CONFLICT(id) DO UPDATE SET
                            entry = excluded.entry, seconds = excluded.seconds, saved_at = excluded.saved_at
                        """,
                    arguments: [position.entry, position.seconds, now])
            }
        }
    }

    func read() throws -> (state: Row?, position: SavedPosition?) {
        try queue.read { db in
            let state = try GRDB.Row.fetchOne(db, sql: "SELECT version, payload FROM player_state WHERE id = 1")
                .map { Row(version: $0["version"], payload: $0["payload"]) }
            let position = try GRDB.Row.fetchOne(db, sql: "SELECT entry, seconds FROM playback_position WHERE id = 1")
                .map { SavedPosition(entry: $0["entry"], seconds: $0["seconds"]) }
            return (state, position)
        }
    }

    /// SQLite's own consistency check: `["ok"]` for a sound file.
    func integrityCheck() throws -> [String] {
        try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }

    func close() throws {
        try queue.close()
    }

    /// True for the errors of a file that is not (or no longer) a usable database.
    static func isCorruption(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }
}
