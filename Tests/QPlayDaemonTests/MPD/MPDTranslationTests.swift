import QPlayEngine
import QPlayLibrary
import QPlayMPD
import QPlayModel
import Testing

@testable import QPlayDaemon

/// The pure parts of the MPD frontend: events as idle subsystems, songs' fields, filters.
@Suite struct MPDTranslationTests {
    private func status(_ change: (inout EngineStatus) -> Void = { _ in }) -> EngineStatus {
        var status = PlayerEngine().status(position: 0)
        change(&status)
        return status
    }

    private func player(_ status: EngineStatus) -> CoreEvent {
        .player(PlayerSnapshot(status: status, outputName: "null", replayGainMode: .off))
    }

    @Test func playerEventsBecomeTheSubsystemsThatChanged() {
        var translator = MPDEventTranslator(initial: status())
        #expect(translator.subsystems(for: player(status { $0.volume = 40 })) == .mixer)
        #expect(translator.subsystems(for: player(status { $0.volume = 40; $0.shuffle = true })) == .options)
        #expect(
            translator.subsystems(for: player(status { $0.volume = 40; $0.shuffle = true; $0.consume = true }))
                == .options)
        // Nothing MPD shows changed: a seek, which MPD reports as player.
        #expect(
            translator.subsystems(for: player(status { $0.volume = 40; $0.shuffle = true; $0.consume = true }))
                == .player)
        #expect(
            translator.subsystems(
                for: player(status { $0.volume = 40; $0.shuffle = true; $0.consume = true; $0.state = .playing }))
                == .player)
    }

    @Test func queueEventsWakePlaylistOnlyWhenTheVersionMoved() {
        var translator = MPDEventTranslator(initial: status { $0.queueVersion = 7 })
        #expect(translator.subsystems(for: .queue(QueueChangeSummary(length: 3, modified: false, version: 7))) == [])
        #expect(
            translator.subsystems(for: .queue(QueueChangeSummary(length: 4, modified: true, version: 8))) == .playlist)
    }

    @Test func scansWakeUpdateAtStartAndEndAndDatabaseWhenSomethingChanged() {
        var translator = MPDEventTranslator()
        #expect(translator.subsystems(for: .scan(ScanProgressSummary(seen: 1, total: nil, rate: 0, done: false))) == .update)
        #expect(translator.subsystems(for: .scan(ScanProgressSummary(seen: 9, total: 20, rate: 5, done: false))) == [])
        #expect(
            translator.subsystems(for: .scan(ScanProgressSummary(seen: 20, total: 20, rate: 5, done: true))) == .update)
        #expect(translator.subsystems(for: .scan(ScanProgressSummary(seen: 1, total: nil, rate: 0, done: false))) == .update)
        let changed = ScanProgressSummary(seen: 20, total: 20, rate: 5, done: true, libraryChanged: true)
        #expect(translator.subsystems(for: .scan(changed)) == [.update, .database])
    }

    @Test func updateJobsAreNumberedAndEndWithTheirScans() {
        let activity = MPDActivity()
        activity.start(with: status())
        let first = activity.updateQueued()
        let second = activity.updateQueued()
        #expect(second == first + 1)
        #expect(activity.runningJob == first)
        _ = activity.receive(.scan(ScanProgressSummary(seen: 5, total: 5, rate: 1, done: true)))
        #expect(activity.runningJob == second)
        _ = activity.receive(.scan(ScanProgressSummary(seen: 5, total: 5, rate: 1, done: true)))
        #expect(activity.runningJob == nil)
        _ = activity.receive(.scan(ScanProgressSummary(seen: 1, total: nil, rate: 1, done: false)))
        #expect(activity.runningJob == second + 1, "a scan qplay started itself gets a number too")
    }

    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00Z"),
        (Int64(1_700_000_000) * 1_000_000_000 + 999_999_999, "2023-11-14T22:13:20Z"),
        (Int64(951_782_400) * 1_000_000_000, "2000-02-29T00:00:00Z"),
        (Int64(-1), "1969-12-31T23:59:59Z"),
    ])
    func lastModifiedIsISO8601InUTC(nanoseconds: Int64, expected: String) {
        #expect(MPDSongWriter.isoDate(nanoseconds: nanoseconds) == expected)
    }

    @Test func songsShowTheEnabledTagsInMPDsOrderOnOneLineEach() {
        let track = Track(
            id: 1, path: "A/B/01 x.flac", title: "Line\nbreak", artist: "Artist", album: "Album", genre: "Pop",
            trackNumber: 1, year: 2024, duration: 3.0305, sampleRate: 44100, channels: 2, format: .flac,
            bitsPerSample: 16, modificationTime: 0)
        var response = MPDResponse()
        MPDSongWriter.write(track, position: 4, id: 9, tags: Set(MPDSongWriter.supportedTags), into: &response)
        let lines = String(decoding: response.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "file: A/B/01 x.flac", "Last-Modified: 1970-01-01T00:00:00Z", "Format: 44100:16:2", "Artist: Artist",
                "Title: Line break", "Album: Album", "Track: 1", "Date: 2024", "Genre: Pop", "Time: 3",
                "duration: 3.030", "Pos: 4", "Id: 9",
            ])
        var bare = MPDResponse()
        MPDSongWriter.write(track, tags: [.genre], into: &bare)
        #expect(!String(decoding: bare.bytes, as: UTF8.self).contains("Artist"))
        #expect(String(decoding: bare.bytes, as: UTF8.self).contains("Genre: Pop"))
    }

    /// The sample format in a song's `Format` (and `status`'s `audio`): FLAC's own bit
    /// depth, and for the lossy formats what MPD 0.23's decoders give.
    @Test(arguments: [
        (AudioFileFormat.mp3, Int?.none, "44100:24:2"), (.flac, 24, "44100:24:2"), (.flac, nil, "44100:16:2"),
        (.vorbis, nil, "44100:f:2"), (.opus, nil, "44100:16:2"),
    ])
    func songsFormatGivesEachFormatsSampleFormat(format: AudioFileFormat, bits: Int?, expected: String) {
        let track = Track(
            id: 1, path: "x", title: "x", sampleRate: 44100, channels: 2, format: format, bitsPerSample: bits)
        var response = MPDResponse()
        MPDSongWriter.write(track, tags: [], into: &response)
        #expect(String(decoding: response.bytes, as: UTF8.self).contains("\nFormat: \(expected)\n"))
    }

    @Test func integersAndOddPathsAreWrittenAsMPDShowsThem() {
        for (value, text) in [(0, "0"), (7, "7"), (1_234_567, "1234567"), (-42, "-42"), (Int.max, String(Int.max))] {
            var bytes: [UInt8] = []
            MPDSongWriter.appendInteger(value, &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == text)
        }
        var response = MPDResponse()
        MPDSongWriter.write(Track(id: 1, path: "A/new\nline.mp3", title: "x"), tags: [], into: &response)
        #expect(String(decoding: response.bytes, as: UTF8.self).hasPrefix("file: A/new line.mp3\nLast-Modified: "))
        var accented = MPDResponse()
        MPDSongWriter.write(Track(id: 1, path: "Café/Crème.mp3", title: "x"), tags: [], into: &accented)
        #expect(String(decoding: accented.bytes, as: UTF8.self).hasPrefix("file: Café/Crème.mp3\n"))
    }

    @Test func findIsExactSearchFoldsAndTheIndexNarrows() throws {
        let track = Track(id: 1, path: "Chloé/Café.mp3", title: "Café Crème", artist: "Chloé Dubois")
        let exact = try MPDTrackFilter(.compare(.tag(.artist), .equals, "Chloé Dubois"), folded: false)
        #expect(exact.matches(track))
        #expect(try !MPDTrackFilter(.compare(.tag(.artist), .equals, "chloé dubois"), folded: false).matches(track))
        #expect(try MPDTrackFilter(.compare(.tag(.artist), .contains, "chloe"), folded: true).matches(track))
        #expect(try MPDTrackFilter(.compare(.tag(.album), .equals, ""), folded: false).matches(track), "a missing tag is empty")
        #expect(try MPDTrackFilter(.not(.compare(.tag(.title), .startsWith, "Caf")), folded: false).matches(track) == false)
        #expect(try MPDTrackFilter(.compare(.tag(.title), .regex, "^Caf.+me$"), folded: false).matches(track))
        #expect(try MPDTrackFilter(.compare(.base, .equals, "Chloé"), folded: false).matches(track))
        #expect(try !MPDTrackFilter(.compare(.base, .equals, "Chlo"), folded: false).matches(track))
        #expect(throws: MPDError.self) { try MPDTrackFilter(.compare(.tag(.title), .regex, "(unclosed"), folded: false) }

        let search = try MPDTrackFilter(.compare(.tag(.title), .contains, "love"), folded: true)
        #expect(search.narrowing.exact, "search's contains is answered by the index alone")
        #expect(search.narrowing.query.predicates == [QPlayLibrary.Predicate(.title, .contains, "love")])
        #expect(!exact.narrowing.exact, "find checks each candidate exactly")
    }
}
