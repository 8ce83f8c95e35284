import Foundation
import GRDB
import QPlayLibrary

/// The file behind each track id the listening tables (`track_figures`, `sticker`,
/// `bookmark`, `resume_point`) keep data for, and which library index those ids are of.
///
/// Library ids are never reused within one index file, but an index built again from
/// nothing (deleted, or moved aside as damaged) numbers its tracks afresh in scan order:
/// the old id of one file may then name another. When the index's identity is not the
/// bound one, every row is detached — re-keyed to a negative id no library track has,
/// its path kept — and a detached row takes the new id of its file once a scan has put
/// that file in the index again (`ListeningKeys`). Reads skip detached rows.
extension StateStore {
    /// Detached keys are below minus this, apart from the small negative ids of tracks
    /// that are not library files (streams).
    static let detachedFloor: Int64 = 1_000_000

    /// The tables keyed by track id, and whether the track is their whole key.
    private static let keyedTables: [(name: String, uniqueTrack: Bool)] = [
        ("track_figures", true), ("sticker", false), ("bookmark", false), ("resume_point", true),
    ]

    /// The library index the ids are of, nil before any was bound.
    func libraryIdentity() throws -> String? {
        try database.read { db in try String.fetchOne(db, sql: "SELECT identity FROM library_binding WHERE id = 1") }
    }

    func bind(toLibrary identity: String) throws {
        try database.write { db in try Self.bind(identity, db) }
    }

    private static func bind(_ identity: String, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO library_binding (id, identity) VALUES (1, ?)
                ON CONFLICT(id) DO UPDATE SET identity = excluded.identity
                """,
            arguments: [identity])
    }

    /// Library track ids with data and no path yet: rows written before paths were kept.
    func tracksWithoutPath() throws -> [Int64] {
        try database.read { db in
            let union = Self.keyedTables.map { "SELECT track FROM \($0.name) WHERE track > 0" }.joined(separator: " UNION ")
            return try Int64.fetchAll(
                db, sql: "SELECT track FROM (\(union)) WHERE track NOT IN (SELECT track FROM track_path)")
        }
    }

    func recordPaths(_ paths: [Int64: Data]) throws {
        guard !paths.isEmpty else { return }
        try database.write { db in try Self.recordPaths(paths, db) }
    }

    static func recordPaths(_ paths: [Int64: Data], _ db: Database) throws {
        let statement = try db.makeStatement(sql: "INSERT OR IGNORE INTO track_path (track, path) VALUES (?, ?)")
        for (track, path) in paths where track > 0 { try statement.execute(arguments: [track, path]) }
    }

    /// The paths of `tracks` in the bound library, read before a write that keys data by
    /// them; empty without a library.
    func libraryPaths(_ tracks: [Int64]) -> [Int64: Data] {
        guard let library else { return [:] }
        return (try? library.pathBytes(ids: tracks.filter { $0 > 0 })) ?? [:]
    }

    /// Binds the store to another library index: every row keyed by an id of the old one
    /// is detached with its path, and a row whose file is not known is dropped — its id
    /// would name whatever file now has it. Returns the number of tracks detached.
    @discardableResult
    func detachAll(bindingTo identity: String) throws -> Int {
        try database.write { db in
            let lowest = try Int64.fetchOne(db, sql: "SELECT MIN(track) FROM track_path") ?? 0
            let base = max(Self.detachedFloor, -lowest)
            for table in Self.keyedTables {
                try db.execute(
                    sql: "DELETE FROM \(table.name) WHERE track > 0 AND track NOT IN (SELECT track FROM track_path)")
                try db.execute(sql: "UPDATE \(table.name) SET track = -(? + track) WHERE track > 0", arguments: [base])
            }
            try db.execute(sql: "UPDATE track_path SET track = -(? + track) WHERE track > 0", arguments: [base])
            try Self.bind(identity, db)
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM track_path WHERE track < 0") ?? 0
        }
    }

    /// Every detached row's key and path.
    func detachedPaths() throws -> [Int64: Data] {
        try database.read { db in
            var paths: [Int64: Data] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT track, path FROM track_path WHERE track < 0") {
                paths[row["track"]] = row["path"]
            }
            return paths
        }
    }

    /// Gives detached rows their file's id in the bound library (`moves`: detached key →
    /// id). Data the new id gathered meanwhile is kept: counts add up, the first sighting
    /// is the earliest, a rating or sticker set since wins.
    func attach(_ moves: [Int64: Int64]) throws {
        guard !moves.isEmpty else { return }
        try database.write { db in
            for (key, id) in moves where key < 0 && id > 0 {
                try Self.mergeFigures(from: key, into: id, db)
                for table in Self.keyedTables where table.name != "track_figures" {
                    try db.execute(
                        sql: "UPDATE OR IGNORE \(table.name) SET track = ? WHERE track = ?", arguments: [id, key])
                    try db.execute(sql: "DELETE FROM \(table.name) WHERE track = ?", arguments: [key])
                }
                try db.execute(sql: "UPDATE OR REPLACE track_path SET track = ? WHERE track = ?", arguments: [id, key])
            }
        }
    }

    private static func mergeFigures(from key: Int64, into id: Int64, _ db: Database) throws {
        guard let old = try Row.fetchOne(db, sql: "SELECT * FROM track_figures WHERE track = ?", arguments: [key]) else {
            return
        }
        if try Row.fetchOne(db, sql: "SELECT 1 FROM track_figures WHERE track = ?", arguments: [id]) == nil {
            try db.execute(sql: "UPDATE track_figures SET track = ? WHERE track = ?", arguments: [id, key])
            return
        }
        let lastPlayed: Double? = old["last_played"]
        let added: Double? = old["added"]
        let rating: Int = old["rating"]
        try db.execute(
            sql: """
                UPDATE track_figures SET plays = plays + ?, skips = skips + ?,
                    last_played = CASE WHEN last_played IS NULL OR last_played < ? THEN ? ELSE last_played END,
                    rating = CASE WHEN rating = 0 THEN ? ELSE rating END,
                    added = CASE WHEN added IS NULL OR added > ? THEN ? ELSE added END
                WHERE track = ?
                """,
            arguments: [
                old["plays"] as Int, old["skips"] as Int, lastPlayed, lastPlayed, rating, added, added, id,
            ])
        try db.execute(sql: "DELETE FROM track_figures WHERE track = ?", arguments: [key])
    }
}
