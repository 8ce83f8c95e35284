import Foundation
import QPlayModel
import Synchronization

/// Every track's plays, skips, last play, rating and first sighting as frontends show
/// them, kept in memory beside the state database that holds them (`track_figures`):
/// wire tracks are built in many places, many at once (a search of the whole library),
/// and read their figures here without a database read each. Loaded at start-up and
/// changed with every write, after it.
final class TrackFigureTable: Sendable {
    static let shared = TrackFigureTable()

    /// Times as the wire shows them: ISO 8601 local time with its offset.
    struct Figures: Sendable, Equatable {
        var plays = 0
        var skips = 0
        var lastPlayed: String?
        var rating = 0
        var added: String?
    }

    private let table = Mutex<[TrackID: Figures]>([:])

    /// A track with no row: never played, skipped or rated, first sighting unknown.
    func figures(of track: TrackID) -> Figures {
        table.withLock { $0[track] } ?? Figures()
    }

    /// The stored table (start-up). Tracks first seen in one scan share one time, so
    /// each distinct time is formatted once.
    func replace(with stored: [Int64: StoredTrackFigures]) {
        var formatted: [Double: String] = [:]
        func format(_ time: Double?) -> String? {
            guard let time else { return nil }
            if let known = formatted[time] { return known }
            let text = Self.wireTime(time)
            formatted[time] = text
            return text
        }
        let figures = stored.mapValues { row in
            Figures(
                plays: row.plays, skips: row.skips, lastPlayed: format(row.lastPlayed), rating: row.rating,
                added: format(row.added))
        }
        table.withLock { $0 = figures }
    }

    /// One row as written.
    func set(_ track: TrackID, to row: StoredTrackFigures) {
        let figures = Figures(
            plays: row.plays, skips: row.skips, lastPlayed: row.lastPlayed.map(Self.wireTime), rating: row.rating,
            added: row.added.map(Self.wireTime))
        table.withLock { $0[track] = figures }
    }

    /// Tracks first seen at `time`; those with figures keep theirs.
    func recordAdded(_ tracks: [TrackID], at time: Double) {
        let added = Self.wireTime(time)
        table.withLock { table in
            for track in tracks where table[track] == nil { table[track] = Figures(added: added) }
        }
    }

    static func wireTime(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).formatted(Date.ISO8601FormatStyle(timeZone: TimeZone.current))
    }
}
