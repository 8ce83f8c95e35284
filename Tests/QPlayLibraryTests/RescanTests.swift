import Foundation
import QPlayLibrary
import QPlayTestSupport
import SystemPackage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Incremental rescans: only changed files are read, ids survive, vanished files go,
/// and a missing or empty music folder purges nothing.
@Suite struct RescanTests {
    @Test func rescanAfterTouchAddAndDeleteGivesExactChanges() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        try fixture.copySamples()
        let index = try fixture.openIndex()
        let scanner = fixture.scanner(index)
        let first = try await scanner.scan()
        #expect(first.added == SampleCatalog.all.count && first.unchanged == 0)
        let before = try index.search(.all)

        let unchanged = try await scanner.scan()
        #expect(unchanged.added == 0 && unchanged.updated == 0 && unchanged.removed == 0)
        #expect(unchanged.unchanged == SampleCatalog.all.count && unchanged.skipped == 0)
        #expect(try index.search(.all) == before)

        // Touch one, add one (a copy under a new name), delete one.
        let touched = fixture.music.appending("Various/Straße.mp3")
        setModificationTime(touched, seconds: 1_000_000_000)
        let added = fixture.music.appending("Various/Copy of Straße.mp3")
        try fixture.directory.copy(touched, to: added)
        let deleted = fixture.music.appending("Test Tones/Day Cycle/01 Morning.mp3")
        #expect(unlink(deleted.string) == 0)

        let rescan = try await scanner.scan()
        #expect(rescan.added == 1)
        #expect(rescan.updated == 1)
        #expect(rescan.removed == 1)
        #expect(rescan.unchanged == SampleCatalog.all.count - 2)
        let after = try index.search(.all)
        #expect(after.count == before.count)
        let oldStrasse = try #require(before.first { $0.path == "Various/Straße.mp3" })
        let newStrasse = try #require(after.first { $0.path == "Various/Straße.mp3" })
        #expect(newStrasse.id == oldStrasse.id)  // updated in place: the id is stable
        #expect(newStrasse.modificationTime == 1_000_000_000 * 1_000_000_000)
        #expect(!after.contains { $0.path == "Test Tones/Day Cycle/01 Morning.mp3" })
        let copy = try #require(after.first { $0.path == "Various/Copy of Straße.mp3" })
        #expect(copy.title == "Straße" && !before.contains { $0.id == copy.id })
        // A deleted track's id is never handed to another file.
        let morningID = try #require(before.first { $0.title == "Morning" }).id
        #expect(try index.tracks(ids: [morningID]).isEmpty)
    }

    @Test func aFileThatTurnsBadIsDroppedAndReported() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        try fixture.copySamples()
        let index = try fixture.openIndex()
        _ = try await fixture.scanner(index).scan()
        let victim = fixture.music.appending("Various/夜の歌.mp3")
        try fixture.directory.write(pseudoRandomBytes(count: 20_000, seed: 9), to: victim)
        let rescan = try await fixture.scanner(index).scan()
        #expect(rescan.removed == 1 && rescan.skipped == 1 && rescan.updated == 0)
        #expect(rescan.problems.map(\.path) == ["Various/夜の歌.mp3"])
        #expect(try index.search(.titleContains("夜の歌")).isEmpty)
    }

    @Test func missingOrEmptyMusicDirectoryPurgesNothing() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        try fixture.copySamples()
        let index = try fixture.openIndex()
        _ = try await fixture.scanner(index).scan()
        let count = try index.statistics().tracks

        let missing = fixture.directory.appending("not-mounted")
        await #expect(throws: LibraryScanError.self) {
            try await fixture.scanner(index, music: missing).scan()
        }
        let empty = fixture.directory.appending("empty-mount-point")
        #expect(mkdir(empty.string, 0o755) == 0)
        await #expect(throws: LibraryScanError.musicDirectoryEmpty(empty)) {
            try await fixture.scanner(index, music: empty).scan()
        }
        let file = fixture.directory.appending("library.sqlite")
        await #expect(throws: LibraryScanError.musicDirectoryUnavailable(file, reason: "not a directory")) {
            try await fixture.scanner(index, music: file).scan()
        }
        #expect(try index.statistics().tracks == count)
        // A folder with files but no music is not "unmounted": its scan removes the tracks.
        try fixture.directory.write(Array("notes".utf8), to: empty.appending("notes.txt"))
        let purge = try await fixture.scanner(index, music: empty).scan()
        #expect(purge.removed == count)
    }

    @Test func scanningASubfolderTouchesOnlyThatFolder() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        try fixture.copySamples()
        let index = try fixture.openIndex()
        _ = try await fixture.scanner(index).scan()
        // Change things inside and outside Test Tones/.
        #expect(unlink(fixture.music.appending("Test Tones/Love Songs/03 Love Theme.mp3").string) == 0)
        #expect(unlink(fixture.music.appending("untagged.mp3").string) == 0)
        setModificationTime(fixture.music.appending("Test Tones/Day Cycle/02 Evening.mp3"), seconds: 42)
        let partial = try await fixture.scanner(index).scan(subpath: "Test Tones")
        #expect(partial.removed == 1 && partial.updated == 1 && partial.added == 0)
        #expect(partial.unchanged == 3)
        #expect(try index.tracks(paths: ["untagged.mp3"]).compactMap { $0 }.count == 1)  // outside: untouched
        // A subfolder that vanished takes its tracks with it.
        #expect(unlink(fixture.music.appending("Compilations/Disc Two Opener.mp3").string) == 0)
        #expect(rmdir(fixture.music.appending("Compilations").string) == 0)
        let gone = try await fixture.scanner(index).scan(subpath: "Compilations")
        #expect(gone.removed == 1)
        await #expect(throws: LibraryScanError.subpathOutsideMusicDirectory("../x")) {
            try await fixture.scanner(index).scan(subpath: "../x")
        }
    }

    @Test func foldersToKeepKeepTheirTracksWhateverTheWalkFinds() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        try fixture.copySamples()
        let index = try fixture.openIndex()
        _ = try await fixture.scanner(index).scan()
        let kept = try index.search(.all).filter { $0.path.starts(with: "Test Tones") }
        #expect(kept.count == 5)
        // As a disk's mount point looks once unmounted: there, and empty.
        #expect(rename(fixture.music.appending("Test Tones").string, fixture.directory.appending("away").string) == 0)
        #expect(mkdir(fixture.music.appending("Test Tones").string, 0o755) == 0)
        #expect(unlink(fixture.music.appending("untagged.mp3").string) == 0)
        let scan = try await fixture.scanner(index).scan(keeping: ["Test Tones"])
        #expect(scan.removed == 1, "only the file deleted outside the kept folder")
        #expect(try index.search(.all).filter { $0.path.starts(with: "Test Tones") } == kept)
        let unkept = try await fixture.scanner(index).scan()
        #expect(unkept.removed == kept.count)
    }

    @Test(.enabled(if: geteuid() != 0, "root reads folders of mode 0"))
    func anUnreadableFolderIsReportedAndKeepsItsTracks() async throws {
        let fixture = LibraryFixture()
        defer {
            chmod(fixture.music.appending("Various").string, 0o755)
            fixture.remove()
        }
        try fixture.copySamples()
        let index = try fixture.openIndex()
        _ = try await fixture.scanner(index).scan()
        let count = try index.statistics().tracks
        #expect(chmod(fixture.music.appending("Various").string, 0) == 0)
        let rescan = try await fixture.scanner(index).scan()
        #expect(rescan.removed == 0 && rescan.skipped == 1)
        #expect(rescan.problems.map(\.path) == ["Various"])
        #expect(try index.statistics().tracks == count)
    }

    @Test func twoScansOfOneIndexDoNotInterleave() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        try fixture.copySamples()
        let index = try fixture.openIndex()
        let scanner = fixture.scanner(index)
        async let one = Result(asyncCatching: { try await scanner.scan() })
        async let two = Result(asyncCatching: { try await scanner.scan() })
        let results = await [one, two]
        let summaries = results.compactMap { try? $0.get() }
        let refused = results.filter {
            if case .failure(let error) = $0 { return error as? LibraryScanError == .scanInProgress }
            return false
        }
        #expect(summaries.count + refused.count == 2)
        #expect(summaries.map(\.added).reduce(0, +) == SampleCatalog.all.count)
        #expect(try index.statistics().tracks == SampleCatalog.all.count)
    }
}

extension Result where Failure == any Error {
    init(asyncCatching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
