import QPlayTestSupport
import Synchronization
import SystemPackage
import Testing

@testable import QPlayLibrary

#if canImport(Glibc)
import Glibc
#endif

/// The watcher's bookkeeping with a real inotify descriptor on real folders, fed events
/// the kernel cannot be made to send on demand (a queue overflow, an unmount) or that
/// are easier to hand in directly (a link created or removed).
@Suite("Watch loop")
struct WatchLoopTests {
    /// What the loop asked of its owner.
    final class Requests: Sendable {
        private let list = Mutex<[LibraryWatcher.Request]>([])
        func append(_ request: LibraryWatcher.Request) { list.withLock { $0.append(request) } }
        var notices: [String] {
            list.withLock { $0.compactMap { if case .notice(let text) = $0 { text } else { nil } } }
        }
        var unmounted: [String] {
            list.withLock { $0.compactMap { if case .unmounted(let path) = $0 { path.string } else { nil } } }
        }
        var available: [String] {
            list.withLock { $0.compactMap { if case .available(let path) = $0 { path.string } else { nil } } }
        }
    }

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    private func makeFolders(_ names: [String], in directory: TemporaryDirectory) {
        for name in names { #expect(mkdir(directory.appending(name).string, 0o755) == 0, "mkdir \(name)") }
    }

    private func loop(_ directory: TemporaryDirectory, limit: Int? = nil, requests: Requests) -> WatchLoop {
        var settings = LibraryWatcher.Settings()
        settings.watchLimit = limit
        return WatchLoop(
            root: Array(directory.path.string.utf8), extensions: ["mp3"], settings: settings, wakeDescriptor: -1,
            handler: { requests.append($0) })
    }

    @Test func anOverflowWatchesWhatIsNewAndRescansEverything() throws {
        let music = TemporaryDirectory("qplay-watch")
        defer { music.remove() }
        makeFolders(["A"], in: music)
        let requests = Requests()
        var loop = loop(music, requests: requests)
        loop.open()
        defer { loop.close() }
        #expect(loop.watchedFolders == [[], bytes("A")])
        #expect(requests.notices.contains("watching 2 folders of the music directory"))

        // Created while events were lost: only the overflow tells.
        makeFolders(["B", "B/C"], in: music)
        loop.take([(watch: -1, mask: UInt32(IN_Q_OVERFLOW), name: [])])
        #expect(loop.watchedFolders == [[], bytes("A"), bytes("B"), bytes("B/C")])
        var batch = loop.batch
        #expect(batch.take() == [[]], "the whole directory is scanned")
    }

    @Test func theWatchLimitLeavesFoldersToThePeriodicRescanAlone() throws {
        let music = TemporaryDirectory("qplay-watch")
        defer { music.remove() }
        makeFolders(["A", "B", "B/C", "D"], in: music)
        let requests = Requests()
        var loop = loop(music, limit: 2, requests: requests)
        loop.open()
        defer { loop.close() }
        // Depth first in name order: the directory and A get the two watches.
        #expect(loop.watchedFolders == [[], bytes("A")])
        #expect(loop.unwatched == [bytes("B"), bytes("D")])
        let notice = try #require(requests.notices.first)
        #expect(notice.contains("watch limit is reached"))
        #expect(notice.contains("watching 2 folders; 2 folders left unwatched"))

        // The periodic rescan covers only the unwatched folders, not the whole directory.
        #expect(loop.rescanUnwatched() == [bytes("B"), bytes("D")])

        // A watched folder goes: the freed watch is used at the next rescan.
        let root = try #require(loop.watch(of: []))
        #expect(rmdir(music.appending("A").string) == 0)
        loop.take([(watch: root, mask: UInt32(IN_DELETE) | UInt32(IN_ISDIR), name: bytes("A"))])
        #expect(loop.watchedFolders == [[]])
        #expect(loop.rescanUnwatched() == [bytes("B"), bytes("D")])
        #expect(loop.watchedFolders == [[], bytes("B")])
        #expect(loop.unwatched == [bytes("B/C"), bytes("D")])

        // An unwatched folder deleted is no longer rescanned.
        #expect(rmdir(music.appending("D").string) == 0)
        loop.take([(watch: root, mask: UInt32(IN_DELETE) | UInt32(IN_ISDIR), name: bytes("D"))])
        #expect(loop.unwatched == [bytes("B/C")])
    }

    @Test func linkedFoldersAreWatchedOnceUnderThePathTheScannerUses() throws {
        let music = TemporaryDirectory("qplay-watch")
        let elsewhere = TemporaryDirectory("qplay-watch-target")
        defer {
            music.remove()
            elsewhere.remove()
        }
        makeFolders(["Real", "Real/Sub"], in: music)
        try music.copy(SampleCatalog.named("untagged.mp3").path, to: music.appending("Real/Sub/a.mp3"))
        // "Link" sorts before "Real": both walk and watch reach the folder through it first.
        #expect(symlink("Real", music.appending("Link").string) == 0)
        #expect(symlink("../..", music.appending("Real/Sub/Loop").string) == 0)
        let requests = Requests()
        var loop = loop(music, requests: requests)
        loop.open()
        defer { loop.close() }
        #expect(loop.watchedFolders == [[], bytes("Link"), bytes("Link/Sub")])
        var walked: [String] = []
        _ = MusicFileWalker(extensions: ["mp3"]).walk(music.path) { entry in
            walked.append(String(decoding: entry.pathBytes.dropFirst(music.path.string.utf8.count + 1), as: UTF8.self))
        }
        #expect(walked == ["Link/Sub/a.mp3"])

        // A link to a folder outside, made and removed: its own events carry no IN_ISDIR.
        // The folder holding a link is scanned: there the walk decides which path wins.
        makeFolders(["Holder"], in: music)
        let holder = try #require(loop.watch(of: []))
        loop.take([(watch: holder, mask: UInt32(IN_CREATE) | UInt32(IN_ISDIR), name: bytes("Holder"))])
        let folder = try #require(loop.watch(of: bytes("Holder")))
        #expect(symlink(elsewhere.path.string, music.appending("Holder/Outside").string) == 0)
        loop.take([(watch: folder, mask: UInt32(IN_CREATE), name: bytes("Outside"))])
        #expect(loop.watchedFolders.contains(bytes("Holder/Outside")))
        #expect(loop.batch.folders == [bytes("Holder")], "the holder, not the link, is scanned")
        #expect(unlink(music.appending("Holder/Outside").string) == 0)
        loop.take([(watch: folder, mask: UInt32(IN_DELETE), name: bytes("Outside"))])
        #expect(!loop.watchedFolders.contains(bytes("Holder/Outside")))

        // The link that was the first way to Real goes: Real is watched under its own name.
        let root = try #require(loop.watch(of: []))
        #expect(unlink(music.appending("Link").string) == 0)
        loop.take([(watch: root, mask: UInt32(IN_DELETE), name: bytes("Link"))])
        #expect(loop.watchedFolders == [[], bytes("Holder"), bytes("Real"), bytes("Real/Sub")])
        var loopBatch = loop.batch
        #expect(loopBatch.take() == [[]], "the music directory, holding the link, is scanned")
    }

    @Test func anUnmountedFolderIsReportedOnceAndWatchedAgainWhenItHoldsFiles() throws {
        let music = TemporaryDirectory("qplay-watch")
        defer { music.remove() }
        makeFolders(["Disk", "Disk/Inner", "Other"], in: music)
        let requests = Requests()
        var loop = loop(music, requests: requests)
        loop.open()
        defer { loop.close() }
        let disk = try #require(loop.watch(of: bytes("Disk")))
        let inner = try #require(loop.watch(of: bytes("Disk/Inner")))
        // The kernel tells every watched folder of the file system, in no set order.
        loop.take([
            (watch: inner, mask: UInt32(IN_UNMOUNT), name: []),
            (watch: disk, mask: UInt32(IN_UNMOUNT), name: []),
            (watch: inner, mask: UInt32(IN_IGNORED), name: []),
            (watch: disk, mask: UInt32(IN_IGNORED), name: []),
        ])
        let diskPath = "Disk"
        #expect(requests.unmounted == [diskPath])
        #expect(loop.unmounted == [bytes("Disk")])
        #expect(loop.watchedFolders == [[], bytes("Other")])
        #expect(loop.batch.isEmpty, "an unmount scans nothing")

        // Still an empty mount point: nothing happens.
        #expect(rmdir(music.appending("Disk/Inner").string) == 0)
        loop.lookForRemounts()
        #expect(loop.unmounted == [bytes("Disk")] && requests.available.isEmpty)

        // Something in it again: scans may drop its tracks again, and it is watched and scanned.
        makeFolders(["Disk/Back"], in: music)
        loop.lookForRemounts()
        #expect(requests.available == [diskPath])
        #expect(loop.unmounted.isEmpty)
        #expect(loop.watchedFolders == [[], bytes("Other"), bytes("Disk"), bytes("Disk/Back")])
        var batch = loop.batch
        #expect(batch.take() == [bytes("Disk")])
    }

    @Test func theMusicDirectoryUnmountedIsNotTakenForUnmountedSubfolders() throws {
        let music = TemporaryDirectory("qplay-watch")
        defer { music.remove() }
        makeFolders(["A", "B"], in: music)
        let requests = Requests()
        var loop = loop(music, requests: requests)
        loop.open()
        defer { loop.close() }
        let root = try #require(loop.watch(of: []))
        let a = try #require(loop.watch(of: bytes("A")))
        let b = try #require(loop.watch(of: bytes("B")))
        loop.take([(watch: a, mask: UInt32(IN_UNMOUNT), name: [])])
        #expect(requests.unmounted == ["A"])
        loop.take([
            (watch: b, mask: UInt32(IN_UNMOUNT), name: []),
            (watch: root, mask: UInt32(IN_UNMOUNT), name: []),
        ])
        #expect(requests.unmounted == ["A"], "B is part of the music directory's own unmount")
        #expect(requests.available == ["A"], "A was too, after all")
        #expect(loop.unmounted.isEmpty && loop.watchedFolders.isEmpty)
        #expect(requests.notices.contains { $0.contains("music directory was removed, moved away or unmounted") })
    }
}
