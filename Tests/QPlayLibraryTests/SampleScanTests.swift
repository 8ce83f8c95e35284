import QPlayLibrary
import QPlayModel
import QPlayTestSupport
import SystemPackage
import Testing

/// Scans the real Samples/ folder and checks the index against Samples/README.md.
@Suite struct SampleScanTests {
    @Test func scanningSamplesIndexesExactlyTheCatalogue() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let index = try fixture.openIndex()
        let summary = try await fixture.scanner(index, music: SampleCatalog.directory).scan()
        #expect(summary.added == SampleCatalog.allFiles.count)
        #expect(summary.updated == 0 && summary.removed == 0 && summary.skipped == 0)
        #expect(summary.problems.isEmpty, "\(summary.problems)")

        let tracks = try index.search(.all)
        #expect(tracks.map(\.path.string).sorted() == SampleCatalog.allFiles.sorted())
        for sample in SampleCatalog.all {
            let track = try #require(tracks.first { $0.path.string == sample.file })
            let fileName = String(sample.file.split(separator: "/").last!.dropLast(4))
            #expect(track.title == (sample.title ?? fileName), "\(sample)")
            #expect(track.artist == sample.artist, "\(sample)")
            #expect(track.album == sample.album, "\(sample)")
            #expect(track.albumArtist == sample.albumArtist, "\(sample)")
            #expect(track.genre == sample.genre, "\(sample)")
            #expect(track.trackNumber == sample.track, "\(sample)")
            #expect(track.discNumber == sample.disc, "\(sample)")
            #expect(track.year == sample.year, "\(sample)")
            #expect(track.sampleRate == sample.sampleRate, "\(sample)")
            #expect(track.channels == sample.channels, "\(sample)")
            #expect(track.replayGain.trackGain == sample.trackGain, "\(sample)")
            #expect(track.replayGain.trackPeak == sample.trackPeak, "\(sample)")
            #expect(track.replayGain.albumGain == sample.albumGain, "\(sample)")
            #expect(track.replayGain.albumPeak == sample.albumPeak, "\(sample)")
            // The LAME header gives the exact gapless length, not TagLib's padded one.
            #expect(track.duration == Double(sample.seconds), "\(sample)")
            #expect(track.bitrateKbps > 0 && track.fileSize > 0 && track.modificationTime > 0)
            #expect(track.format == .mp3 && track.bitsPerSample == nil, "\(sample)")
        }
        for sample in SampleCatalog.formats {
            let track = try #require(tracks.first { $0.path.string == sample.file })
            #expect(track.title == sample.title, "\(sample)")
            #expect(track.format.rawValue == sample.format, "\(sample)")
            #expect(track.sampleRate == sample.sampleRate, "\(sample)")
            #expect(track.channels == sample.channels, "\(sample)")
            #expect(track.bitsPerSample == sample.bits, "\(sample)")
            #expect(track.duration == sample.seconds, "\(sample)")
            #expect(track.replayGain.trackGain == sample.trackGain, "\(sample)")
            #expect(track.replayGain.albumGain == sample.albumGain, "\(sample)")
        }
        let stats = try index.statistics()
        #expect(stats.tracks == SampleCatalog.allFiles.count)
        #expect(stats.lastScan?.added == SampleCatalog.allFiles.count)
        let artists = SampleCatalog.all.compactMap(\.artist) + SampleCatalog.formats.compactMap(\.artist)
        #expect(stats.artists == Set(artists.map { $0.lowercased() }).count)
    }

    @Test func resultsComeInAlbumArtistAlbumDiscTrackTitlePathOrder() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let index = try fixture.openIndex()
        _ = try await fixture.scanner(index, music: SampleCatalog.directory).scan()
        let all = try index.search(.all)
        let expected = all.sorted { lhs, rhs in
            func key(_ t: Track) -> [String] {
                [
                    TextFolding.fold(t.albumArtist ?? t.artist ?? ""), TextFolding.fold(t.album ?? ""),
                    String(format6(t.discNumber ?? 0)), String(format6(t.trackNumber ?? 0)),
                    TextFolding.fold(t.title), t.path.string,
                ]
            }
            return key(lhs).lexicographicallyPrecedes(key(rhs))
        }
        #expect(all.map(\.path) == expected.map(\.path))
        // Spot checks that do not depend on the helper above.
        let loveSongs = try index.search(Query([Predicate(.album, .equals, "love songs")]))
        #expect(loveSongs.map(\.title) == ["Love Song", "Endless Love", "Love Theme"])
        #expect(all.first?.title == "untagged")  // no album artist, artist or album: sorts first
    }

    @Test func searchesIgnoreCaseAndDiacritics() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let index = try fixture.openIndex()
        _ = try await fixture.scanner(index, music: SampleCatalog.directory).scan()
        func titles(_ predicates: Predicate...) throws -> [String] {
            try index.search(Query(predicates)).map(\.title)
        }
        #expect(try titles(Predicate(.artist, .contains, "beyonce")) == ["Straße"])
        #expect(try titles(Predicate(.artist, .equals, "BEYONCÉ TESTER")) == ["Straße"])
        #expect(try titles(Predicate(.title, .contains, "CAFE")) == ["Café Crème"])
        #expect(try titles(Predicate(.title, .equals, "cafe creme")) == ["Café Crème"])
        #expect(try titles(Predicate(.title, .equals, "strasse")) == ["Straße"])
        #expect(try titles(Predicate(.title, .contains, "ночной")) == ["Ночной город"])
        #expect(try titles(Predicate(.title, .contains, "НОЧНОЙ ГОРОД")) == ["Ночной город"])
        #expect(try titles(Predicate(.title, .contains, "夜の")) == ["夜の歌"])
        #expect(try titles(Predicate(.title, .equals, "夜の歌")) == ["夜の歌"])
        #expect(try titles(Predicate(.album, .contains, "pâtisserie")) == ["Café Crème"])
        #expect(try titles(Predicate(.album, .contains, "PATISS")) == ["Café Crème"])
        #expect(try titles(Predicate(.albumArtist, .equals, "various artists")) == ["Disc Two Opener"])
        #expect(try titles(Predicate(.genre, .equals, "city pop")) == ["夜の歌"])
        #expect(try titles(Predicate(.path, .contains, "day cycle/")) == ["Morning", "Evening"])
        #expect(try titles(Predicate(.title, .contains, "love")) == ["Love Song", "Endless Love", "Love Theme"])
        // AND-combined.
        #expect(try titles(Predicate(.title, .contains, "love"), Predicate(.title, .contains, "theme")) == ["Love Theme"])
        #expect(try titles(Predicate(.title, .contains, "love"), Predicate(.genre, .equals, "rock")).isEmpty)
        // One and two characters (below the trigram index's reach) still search.
        let accented = try titles(Predicate(.title, .contains, "é"))
        #expect(try accented == titles(Predicate(.title, .contains, "e")))
        #expect(try titles(Predicate(.title, .contains, "歌")) == ["夜の歌"])
        #expect(try titles(Predicate(.title, .contains, "ss")) == ["Straße", "Endless Love"])
        #expect(try titles(Predicate(.title, .contains, "LO")).count == 3)
        // Quotes and FTS syntax in a value are text, not query syntax.
        #expect(try titles(Predicate(.title, .contains, "\"love\" OR x")).isEmpty)
        #expect(try titles(Predicate(.title, .contains, "lo*")).isEmpty)
        // The index answers what Query.matches answers, for every sample and predicate.
        let all = try index.search(.all)
        for value in ["e", "lo", "love", "cafe", "STRASSE", "ноч", "夜", "tones", "2"] {
            for property in SearchProperty.allCases {
                for comparison in [Comparison.contains, .equals] {
                    let query = Query([Predicate(property, comparison, value)])
                    #expect(
                        try index.search(query).map(\.id) == all.filter(query.matches).map(\.id),
                        "\(property) \(comparison) \(value)")
                }
            }
        }
        #expect(try index.search(.all, limit: 2).map(\.id) == Array(all.prefix(2)).map(\.id))
        #expect(try index.count(Query.titleContains("love")) == 3)
    }

    @Test func tracksByIdsAndPaths() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let index = try fixture.openIndex()
        _ = try await fixture.scanner(index, music: SampleCatalog.directory).scan()
        let all = try index.search(.all)
        let picked = [all[3].id, 999_999, all[0].id, all[3].id]
        #expect(try index.tracks(ids: picked).map(\.id) == [all[3].id, all[0].id, all[3].id])
        #expect(try index.tracks(ids: []).isEmpty)
        let paths: [FilePath] = ["Various/Straße.mp3", "nope.mp3", "untagged.mp3", "Various/Straße.mp3"]
        #expect(try index.tracks(paths: paths).map { $0?.title } == ["Straße", nil, "untagged", "Straße"])
        #expect(try index.track(id: all[1].id) == all[1])
    }

    @Test func anIndexReopenedFromDiskAnswersTheSame() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let queries: [Query] = [
            .all, .titleContains("love"), Query([Predicate(.artist, .contains, "beyonce")]),
            Query([Predicate(.title, .contains, "e")]),
        ]
        var before: [ItemCollection] = []
        var statistics: LibraryStatistics?
        do {
            let index = try fixture.openIndex()
            _ = try await fixture.scanner(index, music: SampleCatalog.directory).scan()
            before = try queries.map { try index.search($0) }
            statistics = try index.statistics()
        }
        let reopened = try fixture.openIndex()
        #expect(try queries.map { try reopened.search($0) } == before)
        #expect(try reopened.statistics() == statistics)
        #expect(before[0].count == SampleCatalog.allFiles.count)
    }
}

private func format6(_ n: Int) -> String {
    let digits = String(n)
    return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
}
