import Foundation
import GRDB
import Logging
import QPlayAudio
import QPlayEngine
import QPlayLibrary
import QPlayModel
import QPlayTestSupport
import SystemPackage
import Testing

@testable import QPlayDaemon

/// Entries naming files of the music directory are stored as path and track id and
/// take their tracks from the library index again (docs/arch/daemon.md, the state
/// database); any other track is stored whole.
@Suite struct QueueByPathTests {
    private func scannedIndex(_ directory: TemporaryDirectory) async throws -> LibraryIndex {
        let index = try LibraryIndex(databasePath: directory.appending("library.sqlite"))
        let library = LibraryService(
            index: index, musicDirectory: SampleCatalog.directory,
            extensions: DecoderRegistry.standard.fileExtensions, events: EventPublisher(),
            log: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        _ = try await library.startScan(subpath: nil).value
        return index
    }

    private func state(_ tracks: [Track], current: Int) -> PersistedEngineState {
        let entries = tracks.enumerated().map { QueueEntry(id: Int64($0.offset + 1), track: $0.element) }
        let ids = entries.map(\.id)
        return PersistedEngineState(
            collection: entries, installed: entries, playOrder: ids.reversed(),
            current: entries[current],
            settings: PersistedEngineSettings(
                current: entries[current].id, modified: true, volume: 55, repeatMode: .off, shuffle: true,
                nextEntryID: Int64(entries.count + 1), randomState: 7))
    }

    @Test func libraryFilesAreStoredByPathAndFoundAgain() async throws {
        let directory = TemporaryDirectory("qplay-queue-by-path")
        defer { directory.remove() }
        let index = try await scannedIndex(directory)
        let library = Array(try index.search(.all))
        try #require(library.count >= 5)
        // A file outside the music directory (an absolute path) is kept whole.
        let outside = Track(id: 0, path: "/srv/elsewhere/Outside.ogg", title: "Outside", artist: "Someone",
                            duration: 12.5, format: .vorbis)
        // A stream's URL is kept whole too (its path is not a file's).
        let stream = Track.stream(url: "http://127.0.0.1:8000/live")
        let saved = state(library + [outside, stream], current: 2)
        let path = directory.appending("state.sqlite")
        do {
            let store = try StateStore(path: path, tracks: LibraryQueueTracks(index: index, musicDirectory: SampleCatalog.directory))
            try store.save(saved)
            try store.close()
        }
        let rows = try DatabaseQueue(path: path.string).read { db in
            try Row.fetchAll(db, sql: "SELECT length(track) AS size, path, track_id FROM queue_entry ORDER BY id")
        }
        #expect(rows.count == library.count + 2)
        for (row, track) in zip(rows, library) {
            #expect(row["size"] as Int == 0)
            #expect(row["path"] as Data? == Data(track.path.string.utf8))
            #expect(row["track_id"] as Int64? == track.id)
        }
        for row in rows.suffix(2) {
            #expect((row["size"] as Int?) ?? 0 > 0)
            #expect(row["path"] as Data? == nil)
        }

        let loaded = try #require(try StateStore(path: path, tracks: LibraryQueueTracks(index: index, musicDirectory: SampleCatalog.directory)).load())
        #expect(loaded.state == saved)
    }

    /// A file that left the library while qplayd was down keeps its place, under its
    /// file name and its track id; the entries around it are whole. (A file the index
    /// lacks but the disk has is read from the disk: ReplayGainEndToEndTests.)
    @Test func anEntryWhoseFileLeftTheLibraryKeepsItsPlace() async throws {
        let directory = TemporaryDirectory("qplay-queue-by-path")
        defer { directory.remove() }
        let index = try await scannedIndex(directory)
        let library = Array(try index.search(.all).prefix(2))
        try #require(library.count == 2)
        let gone = Track(id: 4_242, path: "Gone Band/Lost Album/07 Vanished Song.FLAC", title: "Vanished Song",
                         artist: "Gone Band", duration: 200, format: .flac)
        let saved = state([library[0], gone, library[1]], current: 1)
        let path = directory.appending("state.sqlite")
        try StateStore(path: path, tracks: LibraryQueueTracks(index: index, musicDirectory: SampleCatalog.directory)).save(saved)

        let loaded = try #require(try StateStore(path: path, tracks: LibraryQueueTracks(index: index, musicDirectory: SampleCatalog.directory)).load()).state
        #expect(loaded.collection.map(\.id) == [1, 2, 3])
        #expect(loaded.collection[0].track == library[0])
        #expect(loaded.collection[2].track == library[1])
        let missing = loaded.collection[1].track
        #expect(missing.id == 4_242)
        #expect(missing.path == gone.path)
        #expect(missing.title == "07 Vanished Song")
        #expect(missing.format == .flac)
        #expect(loaded.current?.id == 2)
        #expect(loaded.playOrder == [3, 2, 1])
    }
}
