import Foundation
import GRDB

/// MPD stickers in the state database: a name and a text value per song, by library track
/// id (with the track's path: `StateStore+TrackPaths`). Each call is one transaction, committed before it returns, so a sticker an MPD
/// client was told is set survives a `kill -9`.
extension StateStore {
    /// The track's stickers, by name.
    func stickers(track: Int64) throws -> [String: String] {
        try database.read { db in
            var stickers: [String: String] = [:]
            let rows = try Row.fetchAll(
                db, sql: "SELECT name, value FROM sticker WHERE track = ?", arguments: [track])
            for row in rows { stickers[row["name"]] = row["value"] }
            return stickers
        }
    }

    func sticker(track: Int64, name: String) throws -> String? {
        try database.read { db in
            try String.fetchOne(
                db, sql: "SELECT value FROM sticker WHERE track = ? AND name = ?", arguments: [track, name])
        }
    }

    func setSticker(track: Int64, name: String, value: String) throws {
        let paths = libraryPaths([track])
        try database.write { db in
            try Self.recordPaths(paths, db)
            try db.execute(
                sql: """
                    INSERT INTO sticker (track, name, value) VALUES (?, ?, ?)
                    ON CONFLICT(track, name) DO UPDATE SET value = excluded.value
                    """,
                arguments: [track, name, value])
        }
    }

    /// Removes one sticker, or all the track's with `name` nil; false when there was none.
    func deleteStickers(track: Int64, name: String?) throws -> Bool {
        try database.write { db in
            if let name {
                try db.execute(sql: "DELETE FROM sticker WHERE track = ? AND name = ?", arguments: [track, name])
            } else {
                try db.execute(sql: "DELETE FROM sticker WHERE track = ?", arguments: [track])
            }
            return db.changesCount > 0
        }
    }

    /// Every track with a sticker called `name`, and its value.
    func stickers(named name: String) throws -> [Int64: String] {
        try database.read { db in
            var values: [Int64: String] = [:]
            let rows = try Row.fetchAll(
                db, sql: "SELECT track, value FROM sticker WHERE name = ? AND track > 0", arguments: [name])
            for row in rows { values[row["track"]] = row["value"] }
            return values
        }
    }
}
