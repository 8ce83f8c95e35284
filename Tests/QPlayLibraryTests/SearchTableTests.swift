import Foundation
import QPlayModel
import QPlayTestSupport
import SystemPackage
import Testing

@testable import QPlayLibrary

/// The in-memory search table answers exactly what the SQL path (`SearchSQL`) answers,
/// and is replaced whenever committed data changes.
@Suite struct SearchTableTests {
    /// A few hundred tracks written straight into an index, chosen to stress the order
    /// (ties down to the path, missing numbers, byte order of non-ASCII text, album
    /// artist vs artist) and the folding (diacritics, ß, Cyrillic, Japanese).
    static func syntheticTracks() -> [IndexedFile] {
        let artists: [String?] = ["Beyoncé", "beyonce", "ABBA", "Ánimo", "Ночной Дозор", "夜の歌手", nil, "Zed", "élan"]
        let albums: [String?] = ["Straße", "Strasse", "Café Crème", "Love Songs", nil, "Ёлка", "a", "E"]
        let words = ["love", "Love", "LÓVE", "zephyr", "e", "é", "Night", "straße", "ночь", "歌", "ab", "x", "Endless Love"]
        var generator = SplitMix(seed: 7)
        var files: [IndexedFile] = []
        for n in 0..<400 {
            let artist = artists[generator.next(artists.count)]
            let albumArtist: String? = generator.next(4) == 0 ? artists[generator.next(artists.count)] : nil
            let title = (0..<(1 + generator.next(3))).map { _ in words[generator.next(words.count)] }
                .joined(separator: " ")
            let folder = (artist ?? "Unknown") + "/" + (albums[generator.next(albums.count)] ?? "none")
            // Every 7th track repeats an earlier path's folder and title: ties broken by path.
            let path = "\(folder)/\(n % 7 == 0 ? "dup" : title) \(n).mp3"
            let gain: ReplayGain =
                generator.next(3) == 0
                ? ReplayGain(trackGain: -Double(generator.next(90)) / 10, trackPeak: 0.9, albumGain: -6.5, albumPeak: nil)
                : ReplayGain()
            let track = Track(
                id: 0, path: FilePath(path), title: title, artist: artist, album: albums[generator.next(albums.count)],
                albumArtist: albumArtist, genre: ["Pop", "Rock", nil, "Électro"][generator.next(4)],
                trackNumber: generator.next(5) == 0 ? nil : generator.next(4),
                discNumber: generator.next(3) == 0 ? nil : generator.next(3), year: 1990 + generator.next(30),
                duration: Double(generator.next(600)) / 3, bitrateKbps: 128, sampleRate: 44100, channels: 2,
                replayGain: gain, fileSize: Int64(1000 + n), modificationTime: Int64(n) * 1_000_000_007)
            files.append(IndexedFile(track: track, pathBytes: Array(path.utf8)))
        }
        // Numbers that do not fit the table's compact row, and one path that is not UTF-8.
        var odd = Track(
            id: 0, path: FilePath("Odd/huge.mp3"), title: "Love at scale", artist: "ABBA",
            trackNumber: Int(Int32.max) + 1, discNumber: Int(Int32.min), year: -5,
            bitrateKbps: Int(Int32.max) * 4, sampleRate: 8000, channels: 1)
        files.append(IndexedFile(track: odd, pathBytes: Array("Odd/huge.mp3".utf8)))
        let latin1: [UInt8] = Array("Odd/caf".utf8) + [0xE9] + Array(".mp3".utf8)
        odd = Track(id: 0, path: PathBytes.path(latin1), title: "café", trackNumber: 1)
        files.append(IndexedFile(track: odd, pathBytes: latin1))
        return files
    }

    static let queries: [Query] = {
        var queries: [Query] = [.all]
        let values = [
            "love", "LOVE", "lóve", "e", "é", "E", "lo", "ov", "zephyr", "straße", "strasse", "STRASSE",
            "ночь", "НОЧЬ", "歌", "夜の", "ab", "", "x", "nothing here", "beyonce", "Beyoncé", "a", "Love Songs",
            "pop", "électro", "electro", "dup", ".mp3", "caf", "Endless Love", "love love",
        ]
        for property in SearchProperty.allCases {
            for comparison in [Comparison.contains, .equals] {
                for value in values {
                    queries.append(Query([Predicate(property, comparison, value)]))
                }
            }
        }
        queries.append(Query([Predicate(.title, .contains, "love"), Predicate(.artist, .contains, "b")]))
        queries.append(Query([Predicate(.title, .contains, "e"), Predicate(.album, .equals, "strasse")]))
        queries.append(
            Query([
                Predicate(.title, .contains, "lov"), Predicate(.genre, .contains, "o"),
                Predicate(.path, .contains, "dup"),
            ]))
        queries.append(Query([Predicate(.albumArtist, .equals, ""), Predicate(.title, .contains, "ab")]))
        return queries
    }()

    func makeIndex(_ fixture: LibraryFixture) throws -> LibraryIndex {
        let index = try fixture.openIndex()
        try index.write(Self.syntheticTracks())
        return index
    }

    func sqlAnswer(_ index: LibraryIndex, _ query: Query, limit: Int? = nil) throws -> [Track] {
        try index.pool.read { try index.sqlSearch(query, limit: limit, $0) }
    }

    @Test func tableAndSQLGiveTheSameTracksInTheSameOrder() throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let index = try makeIndex(fixture)
        for query in Self.queries {
            let expected = try sqlAnswer(index, query)
            #expect(try index.search(query).tracks == expected, "\(query)")
            #expect(try index.count(query) == expected.count, "\(query)")
        }
        #expect(index.table.withLock { $0 } != nil, "the table answered")
        // Every query has a non-trivial answer for some value; the battery is not vacuous.
        #expect(try index.search(Query.titleContains("love")).count > 20)
        #expect(try index.search(Query.titleContains("e")).count > 100)
    }

    @Test func limitsCutTheSameOrder() throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let index = try makeIndex(fixture)
        for limit in [0, 1, 5, 1000, -3] {
            for query in [Query.all, .titleContains("e"), .titleContains("love")] {
                #expect(try index.search(query, limit: limit).tracks == sqlAnswer(index, query, limit: limit))
            }
        }
    }

    @Test func answersAgreeWithQueryMatchesAndLibraryOrder() throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let index = try makeIndex(fixture)
        let all = try index.search(.all)
        #expect(all.count == Self.syntheticTracks().count)
        for query in Self.queries {
            #expect(try index.search(query).tracks == all.filter(query.matches), "\(query)")
        }
    }

    @Test func oddValuesSurviveTheCompactTable() throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let index = try makeIndex(fixture)
        let huge = try #require(index.search(Query([Predicate(.path, .equals, "Odd/huge.mp3")])).first)
        #expect(huge.trackNumber == Int(Int32.max) + 1)
        #expect(huge.discNumber == Int(Int32.min))
        #expect(huge.year == -5)
        #expect(huge.bitrateKbps == Int(Int32.max) * 4)
        #expect(try index.tracks(ids: [huge.id]) == [huge])
        let latin1: [UInt8] = Array("Odd/caf".utf8) + [0xE9] + Array(".mp3".utf8)
        let cafe = try #require(index.search(Query([Predicate(.title, .equals, "CAFE")])).first)
        #expect(PathBytes.bytes(cafe.path) == latin1)
    }

    @Test func tracksByIDComeFromTheTableInTheOrderGiven() throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let index = try makeIndex(fixture)
        let sql = try index.tracks(ids: [3, 1, 3, 999_999, 2])  // no table yet: SQL
        #expect(index.table.withLock { $0 } == nil)
        _ = try index.search(.all)
        #expect(try index.tracks(ids: [3, 1, 3, 999_999, 2]) == sql)
        #expect(sql.map(\.id) == [3, 1, 3, 2])
    }

    /// Every path of the index (a non-UTF-8 one and the rows whose numbers do not fit the
    /// compact row among them) is found in the table's path lookup as SQL finds it; a
    /// path that differs in case, in one byte or by a trailing byte is not.
    @Test func tracksByPathComeFromTheTableAsSQLFindsThem() throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let index = try makeIndex(fixture)
        let all = try index.search(.all).tracks
        let asked =
            all.reversed().map(\.path) + [
                "odd/huge.mp3", "Odd/huge.mp", "Odd/huge.mp3x", "", "Odd/huge.mp3", PathBytes.path(Array("Odd/caf".utf8) + [0xC9] + Array(".mp3".utf8)),
            ]
        index.table.withLock { $0 = nil }
        let sql = try index.tracks(paths: asked)  // no table: SQL
        let sqlFound = try index.tracksFound(paths: asked)
        #expect(index.table.withLock { $0 } == nil)
        _ = try index.search(.all)
        #expect(index.table.withLock { $0 } != nil)
        let fromTable = try index.tracks(paths: asked)
        #expect(fromTable == sql)
        let tableFound = try index.tracksFound(paths: asked)
        #expect(tableFound.tracks == sql.compactMap { $0 } && tableFound.missing == 5)
        #expect(sqlFound.tracks == tableFound.tracks && sqlFound.missing == 5)
        #expect(fromTable.prefix(all.count).map { $0?.id } == all.reversed().map(\.id))
        #expect(fromTable.suffix(6).map { $0?.path } == [nil, nil, nil, nil, "Odd/huge.mp3", nil])
    }

    /// Many paths of one folder and one length: their slots crowd, and each is still found
/// (in two halves at once: more than `parallelBuild`).
    @Test func crowdedPathsAreEachFound() throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let index = try fixture.openIndex()
        let files = (0..<3_000).map { n in
            let path = "F/\(String(n, radix: 36).leftPadded(to: 3)).flac"
            return IndexedFile(track: Track(id: 0, path: FilePath(path), title: "t", format: .flac), pathBytes: Array(path.utf8))
        }
        try index.write(files)
        _ = try index.search(.all)
        let table = try #require(index.table.withLock { $0 })
        let ranks = table.ranks(of: files.map(\.track.path) + ["F/zzz.flac"])
        #expect(Set(ranks.prefix(files.count).compactMap { $0 }).count == files.count)
        #expect(ranks.last! == nil)
        let found = try index.tracks(paths: files.map(\.track.path))
        #expect(found.map { $0?.path } == files.map(\.track.path))
        // Built in two halves at once (past `parallelBuild`), the same tracks in the same
        // order as one thread builds them.
        #expect(files.count >= SearchTable.parallelBuild)
        let shuffled = Array(0..<table.count).shuffled()
        #expect(table.tracks(atRanks: shuffled) == table.tracks(atRanks: shuffled, reserving: shuffled.count))
    }

    @Test func aRescanReplacesTheTable() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        try fixture.copySamples()
        let index = try fixture.openIndex()
        _ = try await fixture.scanner(index).scan()
        let before = try index.search(.titleContains("love"))
        #expect(before.map(\.title) == ["Love Song", "Endless Love", "Love Theme"])
        let loaded = try #require(index.table.withLock { $0 })

        // Remove one love song, add a copy under a new name, touch another.
        let songs = fixture.music.appending("Test Tones/Love Songs")
        try FileManager.default.removeItem(atPath: songs.appending("02 Endless Love.mp3").string)
        try fixture.directory.copy(
            SampleCatalog.directory.appending("Test Tones/Love Songs/01 Love Song.mp3"),
            to: fixture.music.appending("Lovely copy.mp3"))
        _ = try await fixture.scanner(index).scan()

        let after = try index.search(.titleContains("love"))
        #expect(after.count == 3)
        #expect(!after.contains { $0.path == "Test Tones/Love Songs/02 Endless Love.mp3" })
        #expect(after.contains { $0.path == "Lovely copy.mp3" })
        #expect(after.tracks == (try sqlAnswer(index, .titleContains("love"))))
        let reloaded = try #require(index.table.withLock { $0 })
        #expect(reloaded !== loaded && reloaded.generation > loaded.generation)
        let gone = try #require(before.first { $0.title == "Endless Love" })
        #expect(try index.tracks(ids: [gone.id]).isEmpty)
        #expect(try index.count(.all) == SampleCatalog.all.count)
    }

    @Test func duringAScanQueriesAnswerTheLastCommittedBatchBySQL() throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let index = try makeIndex(fixture)
        let before = try index.search(.all)
        #expect(index.table.withLock { $0 } != nil)

        #expect(index.beginScan())
        let added = Track(id: 0, path: "New/fresh love.mp3", title: "Fresh Love", artist: "ABBA")
        try index.write([IndexedFile(track: added, pathBytes: Array("New/fresh love.mp3".utf8))])
        // The committed batch is visible at once; the stale table is dropped, not reloaded.
        let during = try index.search(.titleContains("fresh"))
        #expect(during.map(\.title) == ["Fresh Love"])
        #expect(index.table.withLock { $0 } == nil)
        #expect(try index.search(.all).count == before.count + 1)
        index.endScan()

        #expect(try index.search(.titleContains("fresh")).map(\.title) == ["Fresh Love"])
        #expect(index.table.withLock { $0 } != nil)
    }

    @Test func anotherConnectionsWriteIsSeen() throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let reader = try makeIndex(fixture)
        let count = try reader.search(.all).count
        // A second LibraryIndex on the same file (e.g. another process) writes a track.
        let writer = try fixture.openIndex()
        let added = Track(id: 0, path: "Other/zephyr.mp3", title: "Zephyr Again")
        try writer.write([IndexedFile(track: added, pathBytes: Array("Other/zephyr.mp3".utf8))])
        #expect(try reader.search(.all).count == count + 1)
        #expect(try reader.search(.titleContains("zephyr again")).map(\.title) == ["Zephyr Again"])
    }
}

/// A small deterministic generator (SplitMix64) for reproducible test data.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(bound))
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
