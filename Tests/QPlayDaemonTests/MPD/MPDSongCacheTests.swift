import QPlayMPD
import QPlayModel
import SystemPackage
import Testing

@testable import QPlayDaemon

/// The song cache must answer exactly what formatting the song afresh answers, and never
/// the lines of a track that has changed since.
@Suite struct MPDSongCacheTests {
    private let allTags = Set(MPDSongWriter.supportedTags)

    private func track(title: String = "Love Song", artist: String? = "Artist", modified: Int64 = 1_700_000_000_000_000_000) -> Track {
        Track(
            id: 7, path: FilePath("Artist/Album/01 \(title).mp3"), title: title, artist: artist, album: "Album",
            trackNumber: 1, year: 2001, duration: 201.5, sampleRate: 44100, channels: 2, fileSize: 4096,
            modificationTime: modified)
    }

    private func fresh(_ track: Track, position: Int?, id: EntryID?, tags: Set<MPDTag>) -> [UInt8] {
        var response = MPDResponse()
        MPDSongWriter.write(track, position: position, id: id, tags: tags, into: &response)
        return response.bytes
    }

    private func cached(_ cache: MPDSongCache, _ track: Track, position: Int?, id: EntryID?, tags: Set<MPDTag>) -> [UInt8] {
        var response = MPDResponse()
        cache.write(track, position: position, id: id, tags: tags, mask: MPDSongCache.mask(tags), into: &response)
        return response.bytes
    }

    @Test func aCachedSongIsWhatFormattingAnswers() {
        let cache = MPDSongCache()
        let song = track()
        let first = cached(cache, song, position: 3, id: 12, tags: allTags)
        let second = cached(cache, song, position: 4, id: 13, tags: allTags)
        #expect(first == fresh(song, position: 3, id: 12, tags: allTags))
        #expect(second == fresh(song, position: 4, id: 13, tags: allTags))
        #expect(cached(cache, song, position: nil, id: nil, tags: allTags) == fresh(song, position: nil, id: nil, tags: allTags))
    }

    @Test func aChangedTrackIsFormattedAfresh() {
        let cache = MPDSongCache()
        _ = cached(cache, track(), position: 0, id: 1, tags: allTags)
        let retagged = track(title: "Other Title", artist: "Someone Else", modified: 1_800_000_000_000_000_000)
        let answer = String(decoding: cached(cache, retagged, position: 0, id: 1, tags: allTags), as: UTF8.self)
        #expect(answer.contains("Title: Other Title\n"))
        #expect(answer.contains("Artist: Someone Else\n"))
        #expect(!answer.contains("Love Song"))
    }

    @Test func eachSetOfTagsHasItsOwnLines() {
        let cache = MPDSongCache()
        let song = track()
        var withoutArtist = allTags
        withoutArtist.remove(.artist)
        _ = cached(cache, song, position: 0, id: 1, tags: allTags)
        let narrow = String(decoding: cached(cache, song, position: 0, id: 1, tags: withoutArtist), as: UTF8.self)
        #expect(!narrow.contains("\nArtist: "))
        #expect(narrow.contains("\nTitle: Love Song\n"))
        #expect(MPDSongCache.mask(allTags) != MPDSongCache.mask(withoutArtist))
    }

    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00Z"),
        (1_700_000_000_000_000_000, "2023-11-14T22:13:20Z"),
        (951_782_400_000_000_000, "2000-02-29T00:00:00Z"),
        (951_868_799_999_999_999, "2000-02-29T23:59:59Z"),
        (-1, "1969-12-31T23:59:59Z"),
    ])
    func lastModifiedIsUTC(nanoseconds: Int64, expected: String) {
        #expect(MPDSongWriter.isoDate(nanoseconds: nanoseconds) == expected)
    }
}
