import Foundation
import QPlayTestSupport
import SystemPackage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The watched music directory through a real qplayd: files and folders copied in,
/// rewritten, moved and deleted reach the index by themselves; a burst is a few batches;
/// `--no-watch`, the watch-limit fallback and a removed music directory.
@Suite("End to end: watching the music directory", .timeLimit(.minutes(3)))
struct LibraryWatchTests {
    private let tagged = SampleCatalog.all.filter { $0.title != nil && $0.file.hasSuffix(".mp3") }

    /// A music folder holding Album/track.mp3 (a scan refuses an empty directory).
    private func musicFolder() throws -> TemporaryDirectory {
        let music = TemporaryDirectory("qplay-music")
        #expect(mkdir(music.appending("Album").string, 0o755) == 0)
        try music.copy(SampleCatalog.named("untagged.mp3").path, to: music.appending("Album/track.mp3"))
        return music
    }

    /// The indexed tracks whose path contains `text`.
    private func tracks(_ client: LineSocketClient, pathContaining text: String) throws -> [[String: Any]] {
        let found = try client.ok("search", ["where": [["property": "path", "op": "contains", "value": text]]])
        return found["tracks"] as? [[String: Any]] ?? []
    }

    private func trackCount(_ client: LineSocketClient) throws -> Int {
        Int(number(try client.ok("stats")["tracks"]) ?? -1)
    }

    @Test func addedRewrittenMovedAndDeletedFilesAndFoldersReachTheIndex() throws {
        let music = try musicFolder()
        defer { music.remove() }
        let daemon = try startedDaemon(music: music.path.string)
        defer {
            daemon.stop()
            daemon.directory.remove()
        }
        let client = try daemon.client()
        let first = try #require(tagged.first)
        let second = try #require(tagged.first { $0.title != first.title })

        #expect(mkdir(music.appending("New").string, 0o755) == 0)
        try music.copy(first.path, to: music.appending("New/a.mp3"))
        try waitUntil("the copied file is searchable") {
            try tracks(client, pathContaining: "New/a.mp3").first?["title"] as? String == first.title
        }

        // Rewritten in place: the close after the write is seen, the new tags indexed.
        try music.write(try TemporaryDirectory.read(second.path), to: music.appending("New/a.mp3"))
        try waitUntil("the rewritten tags are indexed") {
            try tracks(client, pathContaining: "New/a.mp3").first?["title"] as? String == second.title
        }

        #expect(rename(music.appending("New/a.mp3").string, music.appending("New/b.mp3").string) == 0)
        try waitUntil("the renamed file is indexed under its new name only") {
            try tracks(client, pathContaining: "New/b.mp3").count == 1
                && tracks(client, pathContaining: "New/a.mp3").isEmpty
        }

        #expect(rename(music.appending("New").string, music.appending("Moved").string) == 0)
        try waitUntil("the moved folder's file is indexed at its new place only") {
            try tracks(client, pathContaining: "Moved/b.mp3").count == 1
                && tracks(client, pathContaining: "New/").isEmpty
        }
        // Watches follow the moved folder: a file added to it afterwards is seen.
        try music.copy(first.path, to: music.appending("Moved/c.mp3"))
        try waitUntil("a file added to the moved folder is indexed") {
            try tracks(client, pathContaining: "Moved/c.mp3").count == 1
        }

        #expect(unlink(music.appending("Moved/b.mp3").string) == 0)
        try waitUntil("the deleted file leaves the index") {
            try tracks(client, pathContaining: "Moved/b.mp3").isEmpty
        }
        #expect(try tracks(client, pathContaining: "Moved/c.mp3").count == 1, "only the deleted file went")
        #expect(try tracks(client, pathContaining: "Album/track.mp3").count == 1)
    }

    @Test func aBurstOf500FilesIsIndexedInAFewBatches() throws {
        let music = try musicFolder()
        defer { music.remove() }
        let daemon = try startedDaemon(music: music.path.string)
        defer {
            daemon.stop()
            daemon.directory.remove()
        }
        let client = try daemon.client()
        let events = try daemon.client()
        try events.ok("subscribe", ["events": ["scan"]])
        let before = try trackCount(client)

        #expect(mkdir(music.appending("Burst").string, 0o755) == 0)
        let source = SampleCatalog.named("untagged.mp3").path
        for number in 0..<500 {
            try music.copy(source, to: music.appending("Burst/\(number).mp3"))
        }
        // Every finished scan is one batch (or part of one); count them until all 500 are in.
        var finishedScans = 0
        while try trackCount(client) < before + 500 {
            try events.event("scan") { $0["done"] as? Bool == true }
            finishedScans += 1
            #expect(finishedScans < 100, "far more scans than batches")
            if finishedScans >= 100 { break }
        }
        #expect(try trackCount(client) == before + 500)
        #expect(finishedScans >= 1 && finishedScans <= 20, "\(finishedScans) scans for 500 files")
    }

    @Test func withoutWatchingNothingIsSeenUntilUpdate() throws {
        let music = try musicFolder()
        defer { music.remove() }
        let daemon = DaemonProcess(music: music.path.string)
        defer {
            daemon.stop()
            daemon.directory.remove()
        }
        try daemon.start(["--no-watch"])
        try daemon.waitForLibrary()
        let client = try daemon.client()
        try music.copy(SampleCatalog.named("untagged.mp3").path, to: music.appending("Album/new.mp3"))
        // Longer than a watched batch takes to be handed over and scanned.
        sleep(4)
        #expect(try tracks(client, pathContaining: "Album/new.mp3").isEmpty)
        let response = try client.request("update", ["wait": true])
        #expect(response["ok"] as? Bool == true)
        #expect(try tracks(client, pathContaining: "Album/new.mp3").count == 1)
    }

    @Test func beyondTheWatchLimitAPeriodicRescanFindsChanges() throws {
        let music = try musicFolder()
        defer { music.remove() }
        // Only the music directory itself gets a watch; Album/ does not.
        let daemon = try startedDaemon(music: music.path.string, config: "watch_limit = 1\nwatch_rescan_s = 2\n")
        defer {
            daemon.stop()
            daemon.directory.remove()
        }
        let client = try daemon.client()
        try waitUntil("the watch limit is logged") {
            daemon.log.contains("watch limit is reached") && daemon.log.contains("1 folders watched")
        }
        try music.copy(SampleCatalog.named("untagged.mp3").path, to: music.appending("Album/new.mp3"))
        try waitUntil("the periodic rescan indexes a file in the unwatched folder") {
            try tracks(client, pathContaining: "Album/new.mp3").count == 1
        }
        #expect(daemon.isRunning)
    }

    @Test func removingTheWholeMusicDirectoryPurgesNothingAndItsReturnIsWatched() throws {
        let music = try musicFolder()
        defer { music.remove() }
        #expect(mkdir(music.appending("Second").string, 0o755) == 0)
        try music.copy(SampleCatalog.named("untagged.mp3").path, to: music.appending("Second/other.mp3"))
        let daemon = try startedDaemon(music: music.path.string)
        defer {
            daemon.stop()
            daemon.directory.remove()
        }
        let client = try daemon.client()
        let before = try trackCount(client)
        #expect(before == 2)
        music.remove()
        // The deletes are seen and lead to scans, which refuse a missing music directory.
        try waitUntil("the watcher sees the directory go and a scan refuses to run") {
            daemon.log.contains("music directory was removed") && daemon.log.contains("scan failed")
        }
        #expect(try trackCount(client) == before)
        #expect(try tracks(client, pathContaining: "Second/other.mp3").count == 1)
        #expect(daemon.isRunning)

        // Back with other contents: watched and scanned again, by itself.
        #expect(mkdir(music.path.string, 0o755) == 0)
        #expect(mkdir(music.appending("Back").string, 0o755) == 0)
        try music.copy(SampleCatalog.named("untagged.mp3").path, to: music.appending("Back/new.mp3"))
        try waitUntil("the music directory that came back is scanned") {
            try tracks(client, pathContaining: "Back/new.mp3").count == 1
        }
        try waitUntil("what it no longer holds leaves the index") { try trackCount(client) == 1 }
        try music.copy(SampleCatalog.named("untagged.mp3").path, to: music.appending("Back/later.mp3"))
        try waitUntil("a file added after it came back is indexed") {
            try tracks(client, pathContaining: "Back/later.mp3").count == 1
        }
    }
}
