import Foundation
import GRDB
@testable import QPlayLibrary
import QPlayModel
import QPlayTestSupport
import SystemPackage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The trigram tables hold exactly the rows of `track` after every kind of write: new
/// rows get their entries from one statement per batch (no insert trigger), updates and
/// deletes through their triggers. FTS5's `integrity-check` with rank 1 compares each
/// table with its content table and fails on any missing or stale entry.
@Suite struct TrigramIndexTests {
    private func expectConsistent(_ index: LibraryIndex) throws {
        try index.pool.write { db in
            try db.execute(sql: "INSERT INTO track_title_fts (track_title_fts, rank) VALUES ('integrity-check', 1)")
            try db.execute(sql: "INSERT INTO track_tags_fts (track_tags_fts, rank) VALUES ('integrity-check', 1)")
        }
    }

    /// Track ids whose folded title contains `text`, through the trigram table.
    private func trigramMatches(_ index: LibraryIndex, _ text: String) throws -> [Int64] {
        try index.pool.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT rowid FROM track_title_fts WHERE f_title MATCH ? ORDER BY rowid",
                arguments: ["\"\(text)\""])
        }
    }

    private func instrMatches(_ index: LibraryIndex, _ text: String) throws -> [Int64] {
        try index.pool.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT id FROM track WHERE instr(f_title, ?) > 0 ORDER BY id", arguments: [text])
        }
    }

    @Test func scanRescanAddUpdateAndDeleteKeepTheTrigramTablesExact() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        try fixture.copySamples()
        let index = try fixture.openIndex()
        let scanner = fixture.scanner(index)
        // Small batches: several batches, each adding rows after the last one's ids.
        var batched = scanner
        batched.batchSize = 3
        let first = try await batched.scan()
        #expect(first.added == SampleCatalog.all.count)
        try expectConsistent(index)
        let all = try index.search(.all)
        for track in all {
            let word = TextFolding.fold(track.title)
            guard word.count >= 3 else { continue }
            #expect(try trigramMatches(index, word) == instrMatches(index, word), "title \(track.title)")
        }

        // Touch one (updated in place), add one, delete one, in one rescan.
        let touched = fixture.music.appending("Various/Straße.mp3")
        setModificationTime(touched, seconds: 1_000_000_000)
        try fixture.directory.copy(touched, to: fixture.music.appending("Various/Copy of Straße.mp3"))
        #expect(unlink(fixture.music.appending("Test Tones/Day Cycle/01 Morning.mp3").string) == 0)
        let rescan = try await batched.scan()
        #expect(rescan.added == 1 && rescan.updated == 1 && rescan.removed == 1)
        try expectConsistent(index)
        #expect(try trigramMatches(index, TextFolding.fold("Straße")).count == 2)
        #expect(try trigramMatches(index, "morning").isEmpty)
        #expect(try index.search(.titleContains("Straße")).count == 2)
    }

    @Test func aPathTwiceInOneBatchIsWrittenOnceWithItsLastValues() throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let index = try fixture.openIndex()
        func file(_ title: String) -> IndexedFile {
            IndexedFile(
                track: Track(
                    id: 0, path: "a/song.mp3", title: title, artist: "Someone", album: nil, albumArtist: nil,
                    genre: nil, trackNumber: nil, discNumber: nil, year: nil, duration: 1, bitrateKbps: 128,
                    sampleRate: 44100, channels: 2, replayGain: ReplayGain(), fileSize: 10, modificationTime: 1),
                pathBytes: Array("a/song.mp3".utf8))
        }
        try index.write([file("First Title"), file("Second Title")])
        try expectConsistent(index)
        #expect(try index.search(.all).map(\.title) == ["Second Title"])
        #expect(try trigramMatches(index, "first").isEmpty)
        #expect(try trigramMatches(index, "second").count == 1)
    }

    /// An index written with the insert trigger (before migration "v4") opens without
    /// it, keeps its entries and indexes new rows once, not twice.
    @Test func anIndexFromBeforeTheMigrationKeepsItsEntries() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        try fixture.copySamples()
        do {
            let queue = try DatabaseQueue(path: fixture.databasePath.string)
            try LibrarySchema.migrator.migrate(queue, upTo: "v3: format and bit depth")
            try await queue.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO track (path, title, duration, bitrate, sample_rate, channels, file_size,
                            mtime, f_title, f_artist, f_album, f_album_artist, f_genre, f_path, sort_artist)
                        VALUES (?, 'Old Song', 3.0, 128, 44100, 2, 1000, 1, 'old song', '', '', '', '',
                            'old.mp3', '')
                        """, arguments: [Data("old.mp3".utf8)])
            }
        }
        let index = try fixture.openIndex()
        let triggers = try await index.pool.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
        }
        #expect(triggers == ["track_fts_delete", "track_fts_update"])
        try expectConsistent(index)
        _ = try await fixture.scanner(index).scan()  // adds the samples, drops old.mp3 (no file)
        try expectConsistent(index)
        #expect(try trigramMatches(index, "old song").isEmpty)
        #expect(try index.count(.all) == SampleCatalog.all.count)
    }
}
