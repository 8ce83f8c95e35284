import Foundation
import QPlayModel
import Synchronization

/// Every track's listening figures in memory, by track id, as columns: what frontends
/// show with each track (built many at once, for a whole-library search) and what
/// figure predicates test, neither with a database read per track. The daemon loads it
/// from its state database at start-up and changes it after each write there.
///
/// Columns indexed by id (library ids are small and dense): a predicate over 100,000
/// tracks is one pass over one array, ~4–8 bytes a track per column. A track beyond the
/// columns has the figures of one never seen: nothing played, skipped or rated.
public final class ListeningFigures: Sendable {
    /// The daemon's figures; a `LibraryIndex` tests these unless given others.
    public static let shared = ListeningFigures()

    struct Columns {
        var plays: [UInt32] = []
        var skips: [UInt32] = []
        var rating: [UInt32] = []
        /// NaN: never.
        var lastPlayed: [Double] = []
        var added: [Double] = []

        mutating func reserve(through id: Int) {
            guard id >= plays.count else { return }
            let count = max(id + 1, plays.count * 3 / 2)
            func grow<T>(_ column: inout [T], _ filler: T) {
                column.append(contentsOf: repeatElement(filler, count: count - column.count))
            }
            grow(&plays, 0)
            grow(&skips, 0)
            grow(&rating, 0)
            grow(&lastPlayed, .nan)
            grow(&added, .nan)
        }

        mutating func set(_ id: Int, _ figures: TrackFigures) {
            reserve(through: id)
            plays[id] = UInt32(clamping: figures.plays)
            skips[id] = UInt32(clamping: figures.skips)
            rating[id] = UInt32(clamping: figures.rating)
            lastPlayed[id] = figures.lastPlayed ?? .nan
            added[id] = figures.added ?? .nan
        }

        func figures(_ id: Int) -> TrackFigures {
            guard id >= 0, id < plays.count else { return TrackFigures() }
            return TrackFigures(
                plays: Int(plays[id]), skips: Int(skips[id]), lastPlayed: lastPlayed[id].isNaN ? nil : lastPlayed[id],
                rating: Int(rating[id]), added: added[id].isNaN ? nil : added[id])
        }
    }

    private let columns = Mutex(Columns())

    public init() {}

    public func figures(of track: TrackID) -> TrackFigures {
        columns.withLock { $0.figures(Int(track)) }
    }

    /// Replaces every track's figures (start-up).
    public func replace(with stored: [TrackID: TrackFigures]) {
        var fresh = Columns()
        if let highest = stored.keys.max(), highest >= 0 { fresh.reserve(through: Int(highest)) }
        for (id, figures) in stored where id >= 0 { fresh.set(Int(id), figures) }
        columns.withLock { $0 = fresh }
    }

    public func set(_ track: TrackID, to figures: TrackFigures) {
        guard track >= 0 else { return }
        columns.withLock { $0.set(Int(track), figures) }
    }

    /// Tracks first seen at `time`; those already recorded keep their time.
    public func recordAdded(_ tracks: [TrackID], at time: Double) {
        columns.withLock { columns in
            for track in tracks where track >= 0 {
                columns.reserve(through: Int(track))
                if columns.added[Int(track)].isNaN { columns.added[Int(track)] = time }
            }
        }
    }

    /// Whether every predicate passes for `track` (the SQL path's filter).
    public func passes(_ predicates: [FigurePredicate], _ track: TrackID, now: Double) -> Bool {
        guard !predicates.isEmpty else { return true }
        let figures = figures(of: track)
        return predicates.allSatisfy { $0.matches(figures, now: now) }
    }

    /// The ranks of `rows` whose figures pass `predicate`: one loop per kind of test,
    /// over one column, so 100,000 tracks take a fraction of a millisecond.
    func ranks(of rows: UnsafeBufferPointer<SearchTable.Row>, passing predicate: FigurePredicate, now: Double) -> RankSet {
        columns.withLock { columns in
            if let (lower, upper) = predicate.countRange {
                let column =
                    switch predicate.property {
                    case .plays: columns.plays
                    case .skips: columns.skips
                    default: columns.rating
                    }
                return column.withUnsafeBufferPointer { values in
                    let count = values.count
                    return RankSet(capacity: rows.count) { rank in
                        let id = rows[rank].id
                        let value: UInt32 = id >= 0 && id < count ? values[Int(id)] : 0
                        return value >= lower && value <= upper
                    }
                }
            }
            let column = predicate.property == .added ? columns.added : columns.lastPlayed
            // A count test on a time: a NaN threshold, which nothing passes.
            let threshold = predicate.timeThreshold(now: now) ?? (.nan, true)
            return column.withUnsafeBufferPointer { values in
                let count = values.count
                return RankSet(capacity: rows.count) { rank in
                    let id = rows[rank].id
                    let time = id >= 0 && id < count ? values[Int(id)] : .nan
                    return FigurePredicate.passes(time: time, threshold: threshold)
                }
            }
        }
    }
}
