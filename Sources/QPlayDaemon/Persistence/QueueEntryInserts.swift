import GRDB
import GRDBSQLite
import QPlayEngine
import QPlayModel

/// New `queue_entry` rows, bound straight into SQLite's statements, `batch` rows per
/// INSERT: a loaded 10,000-track playlist is 50 statements, not 10,000 (each statement's
/// own cost was most of a single-row insert's ~19 µs), and no per-value wrapper is made.
///
/// An entry naming a file of the music directory is stored by path and track id with an
/// empty `track` (see `QueueTrackSource`); any other keeps its whole track as JSON.
struct QueueEntryInserts {
    static let batch = 200
    private static let columns = 7

    /// What one row holds besides the track.
    struct Keys {
        var queue: Double?
        var installed: Double?
        var play: Double?
    }

    /// Inserts `entries` (with their sort keys, by position in `entries`) in the caller's
    /// transaction. `byPath`: whether library files may be stored by path.
    static func insert(
        _ entries: [QueueEntry], byPath: Bool, keys: (Int) -> Keys, _ db: Database
    ) throws {
        var json: [UInt8] = []
        var start = 0
        while start < entries.count {
            let rows = entries[start..<min(start + batch, entries.count)]
            // Whole batches share one cached statement; the last, shorter one is made once.
            let sql = rows.count == batch ? fullBatchSQL : insertSQL(rows: rows.count)
            let statement = try rows.count == batch ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
            let handle = statement.sqliteStatement
            defer {
                sqlite3_reset(handle)
                sqlite3_clear_bindings(handle)
            }
            var parameter: Int32 = 1
            for (position, entry) in zip(rows.indices, rows) {
                sqlite3_bind_int64(handle, parameter, entry.id)
                entry.withTrack { track in
                    if byPath && isLibraryFile(track) {
                        sqlite3_bind_zeroblob(handle, parameter + 1, 0)
                        track.path.withPlatformString { pointer in
                            _ = sqlite3_bind_blob(handle, parameter + 2, pointer, Int32(track.path.length), transient)
                        }
                        sqlite3_bind_int64(handle, parameter + 3, track.id)
                    } else {
                        json.removeAll(keepingCapacity: true)
                        StoredTrack(copy track).appendJSON(to: &json)
                        json.withUnsafeBytes { bytes in
                            _ = sqlite3_bind_blob(handle, parameter + 1, bytes.baseAddress, Int32(bytes.count), transient)
                        }
                        sqlite3_bind_null(handle, parameter + 2)
                        sqlite3_bind_null(handle, parameter + 3)
                    }
                }
                let rowKeys = keys(position)
                bind(rowKeys.queue, handle, parameter + 4)
                bind(rowKeys.installed, handle, parameter + 5)
                bind(rowKeys.play, handle, parameter + 6)
                parameter += Int32(columns)
            }
            let code = sqlite3_step(handle)
            guard code == SQLITE_DONE else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
            }
            start += rows.count
        }
    }

    /// A file of the music directory (a relative path that is not a stream's URL), which
    /// the library can name again.
    static func isLibraryFile(_ track: borrowing Track) -> Bool {
        !track.path.isAbsolute && !track.path.isEmpty && !track.isStream
    }

    private static func bind(_ key: Double?, _ handle: OpaquePointer?, _ parameter: Int32) {
        if let key { sqlite3_bind_double(handle, parameter, key) } else { sqlite3_bind_null(handle, parameter) }
    }

    /// SQLite copies the bytes before the bind returns.
    private static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

    private static let fullBatchSQL = insertSQL(rows: batch)

    private static func insertSQL(rows: Int) -> String {
        "INSERT INTO queue_entry (id, track, path, track_id, queue_key, installed_key, play_key) VALUES "
            + repeatElement("(?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
    }
}
