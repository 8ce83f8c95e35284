import GRDB
import GRDBSQLite
import QPlayModel
import SystemPackage

/// Where each path's track sits in a search table: the path index answers one path per
/// step of a prepared statement, its bytes bound without a copy.
enum PathRanks {
    static func ranks(of paths: [FilePath], in table: SearchTable, _ db: Database) throws -> [Int?] {
        let statement = try db.cachedStatement(sql: "SELECT id FROM track WHERE path = ?")
        let handle = statement.sqliteStatement
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        return try paths.map { path in
            sqlite3_reset(handle)
            let code = path.withPlatformString { pointer -> Int32 in
                // SQLITE_STATIC: the bytes outlive the step; reset and cleared before reuse.
                sqlite3_bind_blob(handle, 1, pointer, Int32(path.length), nil)
                return sqlite3_step(handle)
            }
            switch code {
            case SQLITE_ROW: return table.rank(of: sqlite3_column_int64(handle, 0))
            case SQLITE_DONE: return nil
            default:
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
            }
        }
    }
}
