import Foundation
import GRDB

/// A stored bookmark: `created` in seconds since 1970.
struct StoredBookmark: Sendable, Equatable {
    var id: Int64
    var track: Int64
    var position: Double
    var name: String?
    var created: Double
}

/// Bookmarks and resume points in the state database, by library track id (with the
/// track's path: `StateStore+TrackPaths`). Each call
/// is one transaction, committed before it returns.
extension StateStore {
    func addBookmark(track: Int64, position: Double, name: String?) throws -> Int64 {
        let paths = libraryPaths([track])
        return try database.write { db in
            try Self.recordPaths(paths, db)
            try db.execute(
                sql: "INSERT INTO bookmark (track, position, name, created) VALUES (?, ?, ?, ?)",
                arguments: [track, position, name, Date().timeIntervalSince1970])
            return db.lastInsertedRowID
        }
    }

    /// Oldest first; of one track when given.
    func bookmarks(track: Int64? = nil) throws -> [StoredBookmark] {
        try database.read { db in
            let rows =
                if let track {
                    try Row.fetchAll(db, sql: "SELECT * FROM bookmark WHERE track = ? ORDER BY id", arguments: [track])
                } else {
                    try Row.fetchAll(db, sql: "SELECT * FROM bookmark WHERE track > 0 ORDER BY id")
                }
            return rows.map { row in
                StoredBookmark(
                    id: row["id"], track: row["track"], position: row["position"], name: row["name"],
                    created: row["created"])
            }
        }
    }

    /// The tracks bookmarks are of (of one track when given): what a listing checks
    /// against the library before it counts and pages.
    func bookmarkedTracks(track: Int64? = nil) throws -> Set<Int64> {
        try database.read { db in
            Set(
                try Int64.fetchAll(
                    db, sql: "SELECT DISTINCT track FROM bookmark WHERE " + (track == nil ? "track > 0" : "track = ?"),
                    arguments: track.map { [$0] } ?? []))
        }
    }

    /// `count` bookmarks from the `start`th, oldest first (of one track when given), and
    /// how many there are in all: one page of a long list, read in SQL.
    func bookmarks(track: Int64?, start: Int, count: Int) throws -> (page: [StoredBookmark], total: Int) {
        try database.read { db in
            let filter = track == nil ? " WHERE track > 0" : " WHERE track = ?"
            let arguments: StatementArguments = track.map { [$0] } ?? []
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM bookmark" + filter, arguments: arguments) ?? 0
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM bookmark\(filter) ORDER BY id LIMIT ? OFFSET ?",
                arguments: arguments + [count, start])
            let page = rows.map { row in
                StoredBookmark(
                    id: row["id"], track: row["track"], position: row["position"], name: row["name"],
                    created: row["created"])
            }
            return (page, total)
        }
    }

    /// Whether there was such a bookmark.
    func removeBookmark(_ id: Int64) throws -> Bool {
        try database.write { db in
            try db.execute(sql: "DELETE FROM bookmark WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    /// Forgets the bookmarks and resume points of tracks the library no longer has.
    func forgetTracks(_ tracks: [Int64]) throws {
        guard !tracks.isEmpty else { return }
        try database.write { db in
            for track in tracks {
                try db.execute(sql: "DELETE FROM bookmark WHERE track = ?", arguments: [track])
                try db.execute(sql: "DELETE FROM resume_point WHERE track = ?", arguments: [track])
            }
        }
    }

    // MARK: Resume points

    func resumePoints() throws -> [Int64: Double] {
        try database.read { db in
            var points: [Int64: Double] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT track, position FROM resume_point WHERE track > 0") {
                points[row["track"]] = row["position"]
            }
            return points
        }
    }

    /// Sets (or, with nil, clears) the resume point of `track`.
    func setResumePoint(track: Int64, position: Double?) throws {
        let paths = position == nil ? [:] : libraryPaths([track])
        try database.write { db in
            try Self.recordPaths(paths, db)
            if let position {
                try db.execute(
                    sql: """
                        INSERT INTO resume_point (track, position, saved_at) VALUES (?, ?, ?)
                        ON CONFLICT(track) DO UPDATE SET position = excluded.position, saved_at = excluded.saved_at
                        """,
                    arguments: [track, position, Date().timeIntervalSince1970])
            } else {
                try db.execute(sql: "DELETE FROM resume_point WHERE track = ?", arguments: [track])
            }
        }
    }
}
