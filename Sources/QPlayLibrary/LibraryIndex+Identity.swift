import Foundation
import GRDB
import QPlayModel

/// Which index this is, and the raw path bytes behind track ids: what lets data kept
/// elsewhere by track id (the daemon's play counts, ratings, stickers, bookmarks) notice
/// that the index was built again from nothing — its ids restart at 1 in scan order, so
/// an old id may now name another file — and find each file's new id by its path.
extension LibraryIndex {
    /// A random token made the first time it is asked for and kept in `library_info`:
    /// a new index file (deleted, or moved aside as damaged) has another one. A migration
    /// that rebuilds the `track` table must delete the `identity` key with it.
    public func identity() throws -> String {
        if let known = try pool.read({ db in try Self.storedIdentity(db) }) { return known }
        return try pool.write { db in
            if let known = try Self.storedIdentity(db) { return known }
            let made = UUID().uuidString
            try db.execute(
                sql: "INSERT INTO library_info (key, value) VALUES ('identity', ?)", arguments: [Data(made.utf8)])
            return made
        }
    }

    private static func storedIdentity(_ db: Database) throws -> String? {
        try Data.fetchOne(db, sql: "SELECT value FROM library_info WHERE key = 'identity'")
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// The exact path bytes (relative to the music directory) of those of `ids` the
    /// index holds.
    public func pathBytes(ids: [TrackID]) throws -> [TrackID: Data] {
        try pool.read { db in
            var found: [TrackID: Data] = [:]
            for chunk in Self.chunks(ids) {
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                let rows = try Row.fetchAll(
                    db, sql: "SELECT id, path FROM track WHERE id IN (\(marks))", arguments: StatementArguments(chunk))
                for row in rows { found[row["id"]] = row["path"] }
            }
            return found
        }
    }

    /// The ids of the tracks at those of `paths` (exact bytes) the index holds.
    public func trackIDs(pathBytes paths: [Data]) throws -> [Data: TrackID] {
        try pool.read { db in
            var found: [Data: TrackID] = [:]
            for chunk in Self.chunks(paths) {
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                let rows = try Row.fetchAll(
                    db, sql: "SELECT id, path FROM track WHERE path IN (\(marks))", arguments: StatementArguments(chunk))
                for row in rows { found[row["path"]] = row["id"] }
            }
            return found
        }
    }

    /// SQLite limits the number of bound variables per statement.
    private static func chunks<Element>(_ all: [Element]) -> [[Element]] {
        stride(from: 0, to: all.count, by: 500).map { Array(all[$0..<min($0 + 500, all.count)]) }
    }
}
