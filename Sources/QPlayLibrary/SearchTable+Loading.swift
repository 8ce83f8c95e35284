import Foundation
import GRDB
import GRDBSQLite
import SystemPackage

extension SearchTable {
    /// Reads every track of `db`'s current snapshot (call it inside a read transaction,
    /// with `generation` read in the same one) and sorts the rows in the library order.
    ///
    /// Rows are read in id (= rowid) order straight from the SQLite statement (no `Row`,
    /// no `String` per column; tag texts, folders and groups are interned, and
    /// consecutive rows — one album's tracks — usually repeat them, which a comparison
    /// with the previous row catches before any hashing). The sort happens here, in Swift, with the exact
    /// comparison SQLite's `ORDER BY` makes (BINARY collation: memcmp, then length), so
    /// SQLite needs no 100,000-row sorter.
    static func load(_ db: Database, generation: Int64) throws -> SearchTable {
        let rowCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM track") ?? 0
        var loader = SearchTableLoader(expectedRows: rowCount)
        let statement = try db.makeStatement(
            sql: """
                SELECT id, path, title, artist, album, album_artist, genre, track_number,
                disc_number, year, duration, bitrate, sample_rate, channels, rg_track_gain,
                rg_track_peak, rg_album_gain, rg_album_peak, file_size, mtime,
                f_title, f_artist, f_album, f_album_artist, f_genre, sort_artist, format, bits
                FROM track ORDER BY id
                """)
        let handle = statement.sqliteStatement
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
            }
            loader.add(SQLiteRow(handle: handle))
        }
        // Reading every row filled this connection's page cache (2 MB: as much again as
        // the table of 20,000 tracks) with pages no query needs soon: hand them back.
        try db.execute(sql: "PRAGMA shrink_memory")
        return loader.finish(generation: generation)
    }
}

/// Column access on the current row of a stepped statement.
struct SQLiteRow {
    let handle: OpaquePointer

    func bytes(_ column: Int32) -> UnsafeRawBufferPointer? {
        guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
        // Text or blob pointer first, then its length (SQLite's documented order).
        let pointer = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let pointer, count > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: pointer, count: count)
    }

    func int(_ column: Int32) -> Int64? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, column)
    }

    func double(_ column: Int32) -> Double? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_double(handle, column)
    }
}

