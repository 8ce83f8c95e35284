import Foundation
import GRDB
import QPlayModel
import QPlayTestSupport
import SystemPackage
import Testing

@testable import QPlayLibrary

/// Format, rate, channels and bit depth in the index: stored by a scan, answered by both
/// the in-memory search table and SQL, and added to an index written before they were.
@Suite struct FormatIndexTests {
    @Test func aMixedScanAnswersFormatsFromTableAndSQLAlike() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let index = try fixture.openIndex()
        _ = try await fixture.scanner(index, music: SampleCatalog.directory).scan()
        let all = try index.search(.all)
        let fromSQL = try await index.pool.read { try index.sqlSearch(.all, limit: nil, $0) }
        #expect(Array(all) == fromSQL)
        let formats = Dictionary(grouping: all, by: \.format).mapValues(\.count)
        #expect(formats[.mp3] == SampleCatalog.all.count)
        #expect(formats[.flac] == SampleCatalog.formats.filter { $0.format == "flac" }.count)
        #expect(formats[.vorbis] == SampleCatalog.formats.filter { $0.format == "vorbis" }.count)
        #expect(formats[.opus] == SampleCatalog.formats.filter { $0.format == "opus" }.count)
        let deep = try #require(all.first { $0.title == "Deep Tone" })
        #expect(deep.format == .flac && deep.bitsPerSample == 24 && deep.sampleRate == 48000 && deep.channels == 1)
    }

    /// Extensions in any case; the content, not the name, gives the format.
    @Test func upperCaseNamesAndMisleadingExtensionsAreIndexedByContent() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        for (index, sample) in SampleCatalog.formats.enumerated() {
            let ext = sample.path.extension!.uppercased()
            try fixture.directory.copy(sample.path, to: fixture.music.appending("\(index) Track.\(ext)"))
        }
        // Opus under a Vorbis name, Vorbis under an Opus name.
        let opus = SampleCatalog.formats.first { $0.format == "opus" }!
        let vorbis = SampleCatalog.formats.first { $0.format == "vorbis" }!
        try fixture.directory.copy(opus.path, to: fixture.music.appending("opus inside.ogg"))
        try fixture.directory.copy(vorbis.path, to: fixture.music.appending("vorbis inside.opus"))
        let index = try fixture.openIndex()
        let summary = try await LibraryScanner(musicDirectory: fixture.music, index: index).scan()
        #expect(summary.added == SampleCatalog.formats.count + 2, "\(summary.problems)")
        let tracks = try index.search(.all)
        for (index, sample) in SampleCatalog.formats.enumerated() {
            let track = try #require(tracks.first { $0.path.string.hasPrefix("\(index) Track.") })
            #expect(track.format.rawValue == sample.format && track.duration == sample.seconds, "\(sample)")
        }
        #expect(tracks.first { $0.path == "opus inside.ogg" }?.format == .opus)
        #expect(tracks.first { $0.path == "opus inside.ogg" }?.duration == opus.seconds)
        #expect(tracks.first { $0.path == "vorbis inside.opus" }?.format == .vorbis)
        #expect(tracks.first { $0.path == "vorbis inside.opus" }?.duration == vorbis.seconds)
    }

    /// A FLAC file named `.mp3` plays when queued by path (the decoders go by content),
    /// so the scan indexes it too: as FLAC, with its tags, bit depth and exact length —
    /// not skipped because TagLib's MPEG parser finds no audio in it.
    @Test func aFLACNamedMP3IsIndexedAsFLAC() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let sample = try #require(SampleCatalog.formats.first { $0.format == "flac" && $0.title != nil })
        try fixture.directory.copy(sample.path, to: fixture.music.appending("x.mp3"))
        let index = try fixture.openIndex()
        let summary = try await fixture.scanner(index).scan()
        #expect(summary.added == 1 && summary.skipped == 0, "\(summary.problems)")
        let track = try #require(try index.search(.all).first)
        #expect(track.path == "x.mp3" && track.format == .flac && track.format.rawValue == "flac")
        #expect(track.title == sample.title && track.artist == sample.artist && track.album == sample.album)
        #expect(track.duration == sample.seconds && track.bitsPerSample == sample.bits)
        #expect(track.sampleRate == sample.sampleRate && track.channels == sample.channels)
    }

    /// A disguised file an older scan skipped and remembered (its parser was chosen by
    /// name) is read again once after the upgrade, and indexed by its content.
    @Test func aSkipRememberedBeforeTheContentChoiceIsReadAgain() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let sample = try #require(SampleCatalog.formats.first { $0.format == "flac" })
        let path = fixture.music.appending("x.mp3")
        try fixture.directory.copy(sample.path, to: path)
        var info = stat()
        #expect(stat(path.string, &info) == 0)
        let size = Int64(info.st_size)
        let mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        do {
            let queue = try DatabaseQueue(path: fixture.databasePath.string)
            try LibrarySchema.migrator.migrate(queue, upTo: "v4: trigram entries of new rows written per batch")
            try await queue.write { db in
                try db.execute(
                    sql: "INSERT INTO skipped_file (path, file_size, mtime, reason) VALUES (?, ?, ?, ?)",
                    arguments: [Data("x.mp3".utf8), size, mtime, "no audio stream found"])
            }
        }
        let index = try fixture.openIndex()
        #expect(try index.skippedFiles().isEmpty)
        let summary = try await fixture.scanner(index).scan()
        #expect(summary.added == 1 && summary.skipped == 0 && summary.skippedBefore == 0, "\(summary.problems)")
        #expect(try index.search(.all).first?.format == .flac)
    }

    /// An index of the previous schema (MPEG files only) opens, gains the columns, and
    /// its rows read as MP3 without a bit depth, with no rescan.
    @Test func anIndexWrittenBeforeFormatsUpgradesInPlace() throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        do {
            let queue = try DatabaseQueue(path: fixture.databasePath.string)
            try LibrarySchema.migrator.migrate(queue, upTo: "v2: skipped files remembered")
            try queue.write { db in
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
        let tracks = try index.search(.all)
        #expect(tracks.count == 1)
        let track = try #require(tracks.first)
        #expect(track.title == "Old Song" && track.format == .mp3 && track.bitsPerSample == nil)
        #expect(try index.pool.read { try index.sqlSearch(.all, limit: nil, $0) } == [track])
    }
}
