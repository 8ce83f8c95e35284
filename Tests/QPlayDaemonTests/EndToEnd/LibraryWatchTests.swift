import Foundation
import QPlayTestSupport
import SystemPackage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The watched music directory through a real qplayd: files and folders copied in,
/// rewritten, moved and deleted reach the index by themselves; a burst is a few batches;
/// `--no-watch`, the watch-limit fallback, a linked folder, a removed music directory
/// and a disk unmounted inside it.
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
        try withDaemon(music: music.path.string) { daemon in
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
    }

    @Test func aBurstOf500FilesIsIndexedInAFewBatches() throws {
        let music = try musicFolder()
        defer { music.remove() }
        try withDaemon(music: music.path.string) { daemon in
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
    }

    @Test func withoutWatchingNothingIsSeenUntilUpdate() throws {
        let music = try musicFolder()
        defer { music.remove() }
        try withDaemon(music: music.path.string, arguments: ["--no-watch"]) { daemon in
            // A watching daemon on the same folder shows when a watcher has seen the change.
            try withDaemon(music: music.path.string) { watching in
                let client = try daemon.client()
                let control = try watching.client()
                try music.copy(SampleCatalog.named("untagged.mp3").path, to: music.appending("Album/new.mp3"))
                try waitUntil("the watching daemon indexes the new file") {
                    try tracks(control, pathContaining: "Album/new.mp3").count == 1
                }
                #expect(try tracks(client, pathContaining: "Album/new.mp3").isEmpty, "seen without watching")
                #expect(!daemon.log.contains("watching"), "the daemon watches: \(daemon.log)")
                let response = try client.request("update", ["wait": true])
                #expect(response["ok"] as? Bool == true)
                #expect(try tracks(client, pathContaining: "Album/new.mp3").count == 1)
            }
        }
    }

    @Test func beyondTheWatchLimitOnlyTheUnwatchedFoldersAreRescanned() throws {
        let music = try musicFolder()
        defer { music.remove() }
        #expect(mkdir(music.appending("Second").string, 0o755) == 0)
        // Only the music directory itself gets a watch; Album/ and Second/ do not.
        try withDaemon(music: music.path.string, config: "watch_limit = 1\nwatch_rescan_s = 1\n") { daemon in
            let client = try daemon.client()
            try waitUntil("the watch limit is logged") {
                daemon.log.contains("watch limit is reached") && daemon.log.contains("watching 1 folders; 2 folders left unwatched")
            }
            try music.copy(SampleCatalog.named("untagged.mp3").path, to: music.appending("Album/new.mp3"))
            try music.copy(SampleCatalog.named("untagged.mp3").path, to: music.appending("Second/new.mp3"))
            try waitUntil("the periodic rescan indexes files in the unwatched folders") {
                try tracks(client, pathContaining: "Album/new.mp3").count == 1
                    && tracks(client, pathContaining: "Second/new.mp3").count == 1
            }
            // A file in the watched music directory itself is seen by its watch.
            try music.copy(SampleCatalog.named("untagged.mp3").path, to: music.appending("top.mp3"))
            try waitUntil("the watched folder's new file is indexed") {
                try tracks(client, pathContaining: "top.mp3").count == 1
            }
            let scans = daemon.log.split(separator: "\n").filter { $0.contains("scanning \(music.path.string)") }
            #expect(scans.contains { $0.hasSuffix("/Album") } && scans.contains { $0.hasSuffix("/Second") })
            // The start-up scan, the `update` that waited for it, the watched file's batch;
            // the periodic rescans never scan the whole directory.
            let whole = scans.filter { $0.hasSuffix("scanning \(music.path.string)") }
            #expect(whole.count == 3, "\(scans)")
            #expect(daemon.isRunning)
        }
    }

    @Test func aLinkedFolderIsWatchedThroughItsLink() throws {
        let music = try musicFolder()
        let elsewhere = TemporaryDirectory("qplay-linked")
        defer {
            music.remove()
            elsewhere.remove()
        }
        try elsewhere.copy(SampleCatalog.named("untagged.mp3").path, to: elsewhere.appending("first.mp3"))
        #expect(symlink(elsewhere.path.string, music.appending("Linked").string) == 0)
        try withDaemon(music: music.path.string) { daemon in
            let client = try daemon.client()
            #expect(try tracks(client, pathContaining: "Linked/first.mp3").count == 1)
            try elsewhere.copy(SampleCatalog.named("untagged.mp3").path, to: elsewhere.appending("second.mp3"))
            try waitUntil("a file added in the linked folder is indexed under the link") {
                try tracks(client, pathContaining: "Linked/second.mp3").count == 1
            }
            #expect(unlink(music.appending("Linked").string) == 0)
            try waitUntil("the removed link's tracks leave the index") {
                try tracks(client, pathContaining: "Linked/").isEmpty
            }
            #expect(try tracks(client, pathContaining: "Album/track.mp3").count == 1)
        }
    }

    @Test(.enabled(if: MountNamespace.isAvailable, "needs unprivileged user and mount namespaces (unshare -Urm, nsenter)"))
    func anUnmountedFolderPurgesNothingAndIsWatchedOnceMountedAgain() throws {
        let music = try musicFolder()
        defer { music.remove() }
        let disk = music.appending("Disk").string
        #expect(mkdir(disk, 0o755) == 0)
        let source = SampleCatalog.named("untagged.mp3").path.string
        // qplayd runs in a namespace of its own, with a tmpfs on Disk/ holding two tracks.
        try withDaemon(music: music.path.string, start: false) { daemon in
            try daemon.start(
                launcher: MountNamespace.launcher(
                    script: "mount -t tmpfs qplay-disk \"$1\" && cp \"$2\" \"$1/one.mp3\" && cp \"$2\" \"$1/two.mp3\"",
                    [disk, source]))
            try daemon.waitForLibrary()
            let client = try daemon.client()
            #expect(try tracks(client, pathContaining: "Disk/").count == 2)
            let before = try trackCount(client)

            let unmount = try MountNamespace.run(inNamespaceOf: daemon.pid, script: "umount \"$1\"", [disk])
            try #require(unmount.status == 0, "umount: \(unmount.stderr)")
            try waitUntil("the watcher reports the unmount") { daemon.log.contains("Disk was unmounted") }
            // Neither the watcher nor a rescan of everything drops the unmounted tracks.
            let update = try client.request("update", ["wait": true])
            #expect(update["ok"] as? Bool == true)
            #expect(try trackCount(client) == before)
            #expect(try tracks(client, pathContaining: "Disk/").count == 2)
            #expect(daemon.log.contains("keeping the tracks below Disk: unmounted"))

            // Mounted again with one of the tracks and a new one: scanned as it is now.
            let mount = try MountNamespace.run(
                inNamespaceOf: daemon.pid,
                script: "mount -t tmpfs qplay-disk \"$1\" && cp \"$2\" \"$1/one.mp3\" && cp \"$2\" \"$1/three.mp3\"",
                [disk, source])
            try #require(mount.status == 0, "mount: \(mount.stderr)")
            try waitUntil("the mounted folder is scanned again") {
                try tracks(client, pathContaining: "Disk/three.mp3").count == 1
                    && tracks(client, pathContaining: "Disk/two.mp3").isEmpty
                    && tracks(client, pathContaining: "Disk/one.mp3").count == 1
            }
            // And watched: a file copied in later is seen by itself.
            let copy = try MountNamespace.run(inNamespaceOf: daemon.pid, script: "cp \"$2\" \"$1/four.mp3\"", [disk, source])
            try #require(copy.status == 0, "cp: \(copy.stderr)")
            try waitUntil("a file added to the mounted folder is indexed") {
                try tracks(client, pathContaining: "Disk/four.mp3").count == 1
            }
            #expect(daemon.isRunning)
        }
    }

    @Test func removingTheWholeMusicDirectoryPurgesNothingAndItsReturnIsWatched() throws {
        let music = try musicFolder()
        defer { music.remove() }
        #expect(mkdir(music.appending("Second").string, 0o755) == 0)
        try music.copy(SampleCatalog.named("untagged.mp3").path, to: music.appending("Second/other.mp3"))
        try withDaemon(music: music.path.string) { daemon in
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

    @Test(.enabled(if: MountNamespace.isAvailable, "needs unprivileged user and mount namespaces (unshare -Urm, nsenter)"))
    func anUnmountedMusicDirectoryPurgesNothingAndIsScannedOnceMountedAgain() throws {
        let music = TemporaryDirectory("qplay-music")
        defer { music.remove() }
        let source = SampleCatalog.named("untagged.mp3").path.string
        try withDaemon(music: music.path.string, start: false) { daemon in
            try daemon.start(
                launcher: MountNamespace.launcher(
                    script: "mount -t tmpfs qplay-music \"$1\" && mkdir \"$1/Album\" && cp \"$2\" \"$1/Album/one.mp3\" && cp \"$2\" \"$1/Album/two.mp3\"",
                    [music.path.string, source]))
            try daemon.waitForLibrary()
            let client = try daemon.client()
            #expect(try trackCount(client) == 2)

            let unmount = try MountNamespace.run(inNamespaceOf: daemon.pid, script: "umount \"$1\"", [music.path.string])
            try #require(unmount.status == 0, "umount: \(unmount.stderr)")
            try waitUntil("the watcher sees the music directory go") {
                daemon.log.contains("music directory was removed, moved away or unmounted")
            }
            let update = try client.request("update", ["wait": true])
            #expect(update["ok"] as? Bool == false, "a scan of an empty music directory is refused")
            #expect(try trackCount(client) == 2)
            #expect(!daemon.log.contains("was unmounted; its tracks stay"), "taken for an unmounted subfolder")

            let mount = try MountNamespace.run(
                inNamespaceOf: daemon.pid,
                script: "mount -t tmpfs qplay-music \"$1\" && mkdir \"$1/Album\" \"$1/New\" && cp \"$2\" \"$1/Album/one.mp3\" && cp \"$2\" \"$1/New/three.mp3\"",
                [music.path.string, source])
            try #require(mount.status == 0, "mount: \(mount.stderr)")
            try waitUntil("the music directory mounted again is scanned as it is now") {
                try tracks(client, pathContaining: "New/three.mp3").count == 1
                    && tracks(client, pathContaining: "Album/two.mp3").isEmpty
                    && tracks(client, pathContaining: "Album/one.mp3").count == 1
            }
            #expect(daemon.isRunning)
        }
    }
}
