import Foundation
import GRDB
import QPlayLibrary

/// Play counts, ratings and first sightings in the state database, by library track id
/// (with the track's path: `StateStore+TrackPaths`).
/// Each call is one transaction, committed before it returns, so a count survives a
/// `kill -9` the moment it is made.
extension StateStore {
    func trackFigures() throws -> [Int64: TrackFigures] {
        try database.read { db in
            var figures: [Int64: TrackFigures] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM track_figures WHERE track > 0") {
                figures[row["track"]] = TrackFigures(
                    plays: row["plays"], skips: row["skips"], lastPlayed: row["last_played"], rating: row["rating"],
                    added: row["added"])
            }
            return figures
        }
    }

    /// A play of `track` at `time`: one more play, and when.
    func countPlay(track: Int64, at time: Double) throws -> TrackFigures {
        try update(track, seenAt: time, sql: "plays = plays + 1, last_played = ?", arguments: [time])
    }

    func countSkip(track: Int64, at time: Double) throws -> TrackFigures {
        try update(track, seenAt: time, sql: "skips = skips + 1", arguments: [])
    }

    func setRating(track: Int64, stars: Int, at time: Double) throws -> TrackFigures {
        try update(track, seenAt: time, sql: "rating = ?", arguments: [stars])
    }

    /// The highest track id with a row: tracks above it have not been seen yet.
    func highestTrackWithFigures() throws -> Int64? {
        try database.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(track) FROM track_figures WHERE track > 0") }
    }

    /// Tracks seen for the first time at `time`; those with a row already keep theirs.
    func recordAdded(tracks: [Int64], at time: Double) throws {
        guard !tracks.isEmpty else { return }
        let paths = libraryPaths(tracks)
        try database.write { db in
            try Self.recordPaths(paths, db)
            let statement = try db.makeStatement(sql: "INSERT OR IGNORE INTO track_figures (track, added) VALUES (?, ?)")
            for track in tracks { try statement.execute(arguments: [track, time]) }
        }
    }

    /// Changes one row, making it first (a track the scans have not recorded yet is
    /// first seen now), and reads it back.
    private func update(
        _ track: Int64, seenAt time: Double, sql: String, arguments: StatementArguments
    ) throws -> TrackFigures {
        let paths = libraryPaths([track])
        return try database.write { db in
            try Self.recordPaths(paths, db)
            try db.execute(
                sql: "INSERT OR IGNORE INTO track_figures (track, added) VALUES (?, ?)", arguments: [track, time])
            try db.execute(sql: "UPDATE track_figures SET \(sql) WHERE track = ?", arguments: arguments + [track])
            let row = try Row.fetchOne(db, sql: "SELECT * FROM track_figures WHERE track = ?", arguments: [track])
            return TrackFigures(
                plays: row?["plays"] ?? 0, skips: row?["skips"] ?? 0, lastPlayed: row?["last_played"],
                rating: row?["rating"] ?? 0, added: row?["added"])
        }
    }
}
