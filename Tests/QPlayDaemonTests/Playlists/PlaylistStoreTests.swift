import Foundation
import QPlayTestSupport
import Testing

@testable import QPlayDaemon

/// The stored-playlist folder through real files: names, the M3U text read and written,
/// atomic replacement, and lines naming no track kept as they are.
@Suite struct PlaylistStoreTests {
    private func store(_ dir: TemporaryDirectory, changes: Counter = Counter()) -> PlaylistStore {
        PlaylistStore(folder: dir.appending("playlists"), musicDirectory: dir.appending("music")) { changes.add() }
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func add() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }
    }

    @Test(arguments: [
        ("a", true), ("Road trip", true), (".hidden", true), ("Café ☕", true),
        (String(repeating: "x", count: 255), true), (String(repeating: "é", count: 127), true),
        ("", false), ("a/b", false), ("/", false), ("line\nbreak", false), ("cr\rx", false), ("tab\tx", false),
        ("nul\u{0}x", false), ("del\u{7F}x", false), ("c1\u{85}x", false),
        (String(repeating: "x", count: 256), false), (String(repeating: "é", count: 128), false),
    ])
    func namesAreCheckedByBytesSlashAndControlCharacters(_ name: String, _ valid: Bool) {
        #expect(PlaylistName.isValid(name) == valid, "\(name.debugDescription)")
    }

    @Test func aSavedPlaylistIsExtendedM3UAndReadsBack() throws {
        let dir = TemporaryDirectory("qplay-playlists")
        defer { dir.remove() }
        let changes = Counter()
        let store = store(dir, changes: changes)
        let playlist = StoredPlaylist(entries: [
            .init(path: "Test Tones/Day Cycle/01 Morning.mp3", info: .init(seconds: 4, label: "Test Tones - Morning")),
            .init(path: "Chloé Dubois/Café Crème.mp3", info: .init(seconds: 3, label: "Chloé Dubois - Café Crème")),
            .init(path: "gone/missing.mp3"),
        ])
        try store.create("Mix", playlist)
        let text = try String(contentsOfFile: dir.appending("playlists/Mix.m3u").string, encoding: .utf8)
        #expect(
            text == """
                #EXTM3U
                #EXTINF:4,Test Tones - Morning
                Test Tones/Day Cycle/01 Morning.mp3
                #EXTINF:3,Chloé Dubois - Café Crème
                Chloé Dubois/Café Crème.mp3
                gone/missing.mp3

                """)
        #expect(try store.read("Mix") == playlist)
        #expect(changes.count == 1)
        #expect(throws: PlaylistError.exists) { try store.create("Mix", StoredPlaylist()) }
        #expect(changes.count == 1)
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appending("playlists").string) == ["Mix.m3u"])
    }

    @Test func filesOfOtherProgramsAreReadAsMPDReadsThem() throws {
        let dir = TemporaryDirectory("qplay-playlists")
        defer { dir.remove() }
        let store = store(dir)
        try FileManager.default.createDirectory(atPath: dir.appending("playlists").string, withIntermediateDirectories: true)
        // MPD's own files: bare paths; others: CRLF, blank lines, comments, an absolute path in the music folder.
        try dir.write(Array("a.mp3\nb/c.flac\n".utf8), to: dir.appending("playlists/mpd.m3u"))
        let foreign = "#EXTM3U\r\n\r\n# a comment\r\n#EXTINF:12.7,Someone - Something\r\nx.mp3\r\n"
            + "\(dir.appending("music").string)/abs/olute.mp3\n/elsewhere/other.mp3\nhttp://radio.example/stream\n"
        try dir.write(Array(foreign.utf8), to: dir.appending("playlists/other.m3u8"))
        try dir.write(Array("shadowed.mp3\n".utf8), to: dir.appending("playlists/mpd.m3u8"))
        try dir.write(Array("not a playlist".utf8), to: dir.appending("playlists/notes.txt"))
        #expect(try store.list().map(\.name) == ["mpd", "other"])
        #expect(try store.read("mpd").paths == ["a.mp3", "b/c.flac"])
        let other = try store.read("other")
        #expect(other.paths == ["x.mp3", "abs/olute.mp3", "/elsewhere/other.mp3", "http://radio.example/stream"])
        #expect(other.entries[0].info == .init(seconds: 12, label: "Someone - Something"))
        #expect(throws: PlaylistError.notFound) { try store.read("notes") }
        #expect(throws: PlaylistError.badName) { try store.read("a/b") }
    }

    @Test func editsKeepLinesThatNameNoTrackAndTheFilesSuffix() throws {
        let dir = TemporaryDirectory("qplay-playlists")
        defer { dir.remove() }
        let store = store(dir)
        try FileManager.default.createDirectory(atPath: dir.appending("playlists").string, withIntermediateDirectories: true)
        try dir.write(Array("one.mp3\nmissing.mp3\nthree.mp3\n".utf8), to: dir.appending("playlists/eight.m3u8"))
        try store.edit("eight") { playlist throws(PlaylistError) in playlist.entries.remove(at: 0) }
        #expect(try store.read("eight").paths == ["missing.mp3", "three.mp3"])
        #expect(!FileManager.default.fileExists(atPath: dir.appending("playlists/eight.m3u").string))
        #expect(throws: PlaylistError.notFound) {
            try store.edit("nothing") { (_: inout StoredPlaylist) throws(PlaylistError) in }
        }
        try store.edit("created", creating: true) { playlist throws(PlaylistError) in playlist.entries.append(.init(path: "n.mp3")) }
        #expect(try store.read("created").paths == ["n.mp3"])
        // A failing edit writes nothing.
        #expect(throws: PlaylistError.badIndex) {
            try store.edit("created") { (playlist: inout StoredPlaylist) throws(PlaylistError) in
                playlist.entries.removeAll()
                throw .badIndex
            }
        }
        #expect(try store.read("created").paths == ["n.mp3"])
    }

    @Test func renameAndDelete() throws {
        let dir = TemporaryDirectory("qplay-playlists")
        defer { dir.remove() }
        let changes = Counter()
        let store = store(dir, changes: changes)
        try store.create("a", StoredPlaylist(entries: [.init(path: "x.mp3")]))
        try store.create("b", StoredPlaylist())
        #expect(throws: PlaylistError.exists) { try store.rename("a", to: "b") }
        #expect(throws: PlaylistError.notFound) { try store.rename("zz", to: "c") }
        #expect(throws: PlaylistError.badName) { try store.rename("a", to: "c/d") }
        try store.rename("a", to: "c")
        #expect(try store.list().map(\.name) == ["b", "c"])
        #expect(try store.read("c").paths == ["x.mp3"])
        try store.delete("b")
        #expect(throws: PlaylistError.notFound) { try store.delete("b") }
        #expect(try store.list().map(\.name) == ["c"])
        #expect(changes.count == 4)
        try store.replace("c", StoredPlaylist(entries: [.init(path: "y.mp3")]))
        #expect(try store.read("c").paths == ["y.mp3"])
    }

    @Test func aMissingFolderIsEmptyAndMadeOnTheFirstWrite() throws {
        let dir = TemporaryDirectory("qplay-playlists")
        defer { dir.remove() }
        let store = PlaylistStore(folder: dir.appending("deep/er/playlists"), musicDirectory: dir.appending("music"))
        #expect(try store.list().isEmpty)
        try store.replace("first", StoredPlaylist(entries: [.init(path: "a.mp3")]))
        #expect(try store.list().map(\.name) == ["first"])
    }

    @Test func changesOnDiskAreToldFromTheStoresOwn() throws {
        let dir = TemporaryDirectory("qplay-playlists")
        defer { dir.remove() }
        let changes = Counter()
        let store = store(dir, changes: changes)
        #expect(!store.folderMayHaveChanged(), "the first look is the starting point")
        try store.create("mine", StoredPlaylist(entries: [.init(path: "a.mp3")]))
        #expect(changes.count == 1)
        #expect(!store.folderMayHaveChanged(), "its own write is known")
        try dir.write(Array("b.mp3\n".utf8), to: dir.appending("playlists/theirs.m3u"))
        #expect(store.folderMayHaveChanged())
        #expect(changes.count == 2)
        #expect(!store.folderMayHaveChanged())
        try dir.write(Array("b.mp3\nc.mp3\n".utf8), to: dir.appending("playlists/theirs.m3u"))
        #expect(store.folderMayHaveChanged(), "a rewrite changes the size")
        try FileManager.default.removeItem(atPath: dir.appending("playlists/theirs.m3u").string)
        #expect(store.folderMayHaveChanged())
        try dir.write(Array("x".utf8), to: dir.appending("playlists/notes.txt"))
        #expect(!store.folderMayHaveChanged(), "not a playlist")
        #expect(changes.count == 4)
    }
}
