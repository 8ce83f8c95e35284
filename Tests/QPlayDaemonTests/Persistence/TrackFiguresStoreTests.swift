import GRDB
import QPlayLibrary
import QPlayTestSupport
import Testing

@testable import QPlayDaemon

/// The `track_figures` table: plays, skips, rating and first sighting by track id,
/// each written in its own transaction and kept across reopening.
@Suite struct TrackFiguresStoreTests {
    @Test func countsRatingsAndSightingsSurviveReopening() throws {
        let dir = TemporaryDirectory("qplay-figures-store")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        do {
            let store = try StateStore(path: path)
            #expect(try store.highestTrackWithFigures() == nil)
            try store.recordAdded(tracks: [3, 4, 5], at: 1_000)
            _ = try store.countPlay(track: 4, at: 2_000)
            let played = try store.countPlay(track: 4, at: 3_000)
            #expect(played == TrackFigures(plays: 2, skips: 0, lastPlayed: 3_000, rating: 0, added: 1_000))
            _ = try store.countSkip(track: 5, at: 2_500)
            _ = try store.setRating(track: 5, stars: 4, at: 2_600)
            // A track no scan recorded yet is first seen at its first count.
            #expect(try store.countSkip(track: 9, at: 4_000).added == 4_000)
            // A second sighting keeps the first.
            try store.recordAdded(tracks: [4, 10], at: 5_000)
            try store.close()
        }
        let reopened = try StateStore(path: path)
        let figures = try reopened.trackFigures()
        #expect(figures[3] == TrackFigures(added: 1_000))
        #expect(figures[4] == TrackFigures(plays: 2, lastPlayed: 3_000, added: 1_000))
        #expect(figures[5] == TrackFigures(skips: 1, rating: 4, added: 1_000))
        #expect(figures[9] == TrackFigures(skips: 1, added: 4_000))
        #expect(figures[10] == TrackFigures(added: 5_000))
        #expect(try reopened.highestTrackWithFigures() == 10)
    }

    @Test func aDatabaseFromBeforeGainsTheTableAndKeepsItsRows() throws {
        let dir = TemporaryDirectory("qplay-figures-store")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        do {
            let queue = try DatabaseQueue(path: path.string)
            try StateDatabase.migrator.migrate(queue, upTo: "v5")
            try queue.write { db in
                try db.execute(sql: "INSERT INTO resume_point (track, position, saved_at) VALUES (7, 300, 0)")
            }
            try queue.close()
        }
        let store = try StateStore(path: path)
        #expect(try store.resumePoints() == [7: 300])
        #expect(try store.trackFigures().isEmpty)
        #expect(try store.countPlay(track: 7, at: 10).plays == 1)
    }
}
