import GRDB
import GRDBSQLite
import QPlayModel
import SystemPackage

/// Where each path's track sits in a search table: the path index answers one path per
/// step of a prepared statement, its bytes bound without a copy. The paths are looked up
/// in the index's own order (bytes compared as SQLite compares blobs), so consecutive
/// steps walk neighbouring pages: a 10,000-path playlist in a 100,000-track library read
/// each index page once (~2,000 reads of 4 KB) instead of ~13,700 in the playlist's order,
/// where the readers' small page cache (`LibraryIndex`) missed on nearly every path.
enum PathRanks {
    static func ranks(of paths: [FilePath], in table: SearchTable, _ db: Database) throws -> [Int?] {
        let statement = try db.cachedStatement(sql: "SELECT id FROM track WHERE path = ?")
        let handle = statement.sqliteStatement
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        let bytes = paths.map(PathBytes.bytes)
        let order = bytes.indices.sorted { bytes[$0].lexicographicallyPrecedes(bytes[$1]) }
        var ranks = [Int?](repeating: nil, count: paths.count)
        for position in order {
            sqlite3_reset(handle)
            let code = bytes[position].withUnsafeBufferPointer { buffer -> Int32 in
                // SQLITE_STATIC: the bytes outlive the step; reset and cleared before reuse.
                sqlite3_bind_blob(handle, 1, buffer.baseAddress, Int32(buffer.count), nil)
                return sqlite3_step(handle)
            }
            switch code {
            case SQLITE_ROW: ranks[position] = table.rank(of: sqlite3_column_int64(handle, 0))
            case SQLITE_DONE: break
            default:
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
            }
        }
        return ranks
    }
}
