import Foundation
import QPlayModel
import QPlayTestSupport
import Testing

@testable import QPlayLibrary

/// Figure predicates (counts compared with numbers, times within or before an age)
/// give the same tracks from the search table, from the SQL path (which filters its
/// rows by the figures) and from `Query.matches`, alone and mixed with text predicates.
@Suite struct FigurePredicateTests {
    static let now = Date().timeIntervalSince1970
    static let day = 86_400.0

    /// Times fall half a day off any whole day, so the seconds between this `now` and the
    /// index's own do not move a track across a test's boundary.
    /// Figures for most tracks, seeded, with some tracks never recorded at all.
    static func figures(for ids: [TrackID]) -> [TrackID: TrackFigures] {
        var generator = SplitMix(seed: 11)
        var figures: [TrackID: TrackFigures] = [:]
        for id in ids where generator.next(4) != 0 {
            let played = generator.next(3) == 0
            figures[id] = TrackFigures(
                plays: played ? 1 + generator.next(9) : 0, skips: generator.next(5),
                lastPlayed: played ? now - (Double(generator.next(200)) + 0.5) * day : nil, rating: generator.next(6),
                added: now - (Double(generator.next(60)) + 0.5) * day)
        }
        return figures
    }

    static let queries: [Query] = {
        var queries: [Query] = []
        let tests: [FigurePredicate.Test] = [
            .equal(0), .equal(3), .less(1), .less(0), .greater(3), .greater(-1), .lessOrEqual(2), .greaterOrEqual(4),
            .greaterOrEqual(0),
        ]
        for property in [FigureProperty.plays, .skips, .rating] {
            for test in tests { queries.append(Query([], figures: [FigurePredicate(property, test)])) }
        }
        for property in [FigureProperty.lastPlayed, .added] {
            for days in [0.0, 7, 30, 90, 365] {
                queries.append(Query([], figures: [FigurePredicate(property, .within(seconds: days * day))]))
                queries.append(Query([], figures: [FigurePredicate(property, .before(seconds: days * day))]))
            }
        }
        queries.append(
            Query(
                [Predicate(.title, .contains, "love")],
                figures: [FigurePredicate(.rating, .greaterOrEqual(3)), FigurePredicate(.plays, .equal(0))]))
        queries.append(
            Query([Predicate(.artist, .contains, "b")], figures: [FigurePredicate(.lastPlayed, .before(seconds: 90 * day))]))
        return queries
    }()

    @Test func tableSQLAndMatchesAgree() throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let listening = ListeningFigures()
        let index = try LibraryIndex(databasePath: fixture.databasePath, listening: listening)
        try index.write(SearchTableTests.syntheticTracks())
        let all = try index.search(.all).tracks
        let stored = Self.figures(for: all.map(\.id))
        listening.replace(with: stored)
        var sizes: [Int] = []
        for query in Self.queries {
            let expected = all.filter { query.matches($0, figures: stored[$0.id] ?? TrackFigures(), now: Self.now) }
            let table = try index.search(query).tracks
            let sql = try index.pool.read { try index.sqlSearch(query, limit: nil, $0) }
            #expect(table.map(\.id) == expected.map(\.id), "\(query)")
            #expect(sql.map(\.id) == expected.map(\.id), "\(query)")
            #expect(try index.count(query) == expected.count, "\(query)")
            #expect(try index.search(query, limit: 5).tracks.map(\.id) == expected.prefix(5).map(\.id), "\(query)")
            #expect(try index.pool.read { try index.sqlSearch(query, limit: 5, $0) }.map(\.id) == expected.prefix(5).map(\.id))
            sizes.append(expected.count)
        }
        #expect(index.table.withLock { $0 } != nil, "the table answered")
        // Not vacuous: most tests select some tracks but not all of them.
        #expect(sizes.filter { $0 > 0 && $0 < all.count }.count > Self.queries.count / 2, "\(sizes)")
    }

    @Test func neverPlayedIsNeverWithinAndAlwaysBefore() {
        let never = TrackFigures()
        #expect(!FigurePredicate(.lastPlayed, .within(seconds: 1e12)).matches(never, now: Self.now))
        #expect(FigurePredicate(.lastPlayed, .before(seconds: 0)).matches(never, now: Self.now))
        let yesterday = TrackFigures(lastPlayed: Self.now - Self.day)
        #expect(FigurePredicate(.lastPlayed, .within(seconds: 2 * Self.day)).matches(yesterday, now: Self.now))
        #expect(!FigurePredicate(.lastPlayed, .before(seconds: 2 * Self.day)).matches(yesterday, now: Self.now))
    }

    @Test func changedFiguresChangeTheAnswerWithoutANewTable() throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let listening = ListeningFigures()
        let index = try LibraryIndex(databasePath: fixture.databasePath, listening: listening)
        try index.write(SearchTableTests.syntheticTracks())
        let topRated = Query([], figures: [FigurePredicate(.rating, .greaterOrEqual(4))])
        #expect(try index.count(topRated) == 0)
        let some = try index.search(.all).tracks[7]
        listening.set(some.id, to: TrackFigures(rating: 5))
        #expect(try index.search(topRated).tracks == [some])
        listening.set(some.id, to: TrackFigures(rating: 3))
        #expect(try index.count(topRated) == 0)
        // Ids past every recorded one read as never seen.
        listening.recordAdded([100_000], at: Self.now)
        #expect(listening.figures(of: 100_000) == TrackFigures(added: Self.now))
        #expect(listening.figures(of: 99_999) == TrackFigures())
    }
}
