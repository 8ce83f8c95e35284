import Foundation
import QPlayTestSupport
import SystemPackage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A data folder that stops taking writes: edits still answer `ok` and take effect,
/// `status.storage_error` and a `storage` event say why nothing is saved, and when the
/// disk works again the whole state is saved, the error clears, and a restart finds the
/// latest queue. Faults are real: a small tmpfs mounted on the data folder and filled
/// up; a database file made immutable with `chattr +i` (as root, permission bits do not
/// stop writes). Each test is skipped where the machine does not allow it.
@Suite("End to end: full or read-only data folder", .timeLimit(.minutes(2)))
struct StorageFaultEndToEndTests {
    typealias Expected = DurabilityEndToEndTests.Expected

    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let probe = TemporaryDirectory("qplay-mount-probe")
        defer { probe.remove() }
        let point = probe.appending("m").string
        guard mkdir(point, 0o700) == 0, mountTmpfs(at: point, size: "64k") else { return false }
        unmount(point)
        return true
    }()

    static let canMakeImmutable: Bool = {
        guard getuid() == 0 else { return false }
        let probe = TemporaryDirectory("qplay-chattr-probe")
        defer { probe.remove() }
        let file = probe.appending("f")
        guard (try? probe.write([1], to: file)) != nil, chattr("+i", file.string) else { return false }
        return chattr("-i", file.string)
    }()

    @Test(.enabled(if: canMount, "needs root and tmpfs mounts"))
    func aFullDiskIsReportedAndEditsAreSavedOnceSpaceIsFree() throws {
        let daemon = DaemonProcess()
        defer {
            daemon.stop()
            Self.unmount(daemon.dataDirectory)
            daemon.directory.remove()
        }
        try #require(mkdir(daemon.dataDirectory, 0o700) == 0)
        try #require(Self.mountTmpfs(at: daemon.dataDirectory, size: "4m"))
        try daemon.start()
        try daemon.waitForLibrary()
        let client = try daemon.client()
        let watcher = try daemon.client()
        try watcher.ok("subscribe", ["events": ["storage"]])
        let ids = try client.ok("search")["tracks"] as? [[String: Any]] ?? []
        let trackIDs = ids.compactMap { $0["id"] as? Int }
        try #require(!trackIDs.isEmpty)
        try client.ok("add", ["ids": trackIDs])
        #expect(try client.status()["storage_error"] is NSNull)

        let filler = daemon.dataDirectory + "/filler"
        Self.fill(filler)
        // The WAL reuses its space for a while: edit until a save needs more.
        var message: String?
        for _ in 0..<400 {
            try client.ok("add", ["ids": trackIDs])
            if let error = try client.status()["storage_error"] as? String {
                message = error
                break
            }
        }
        let error = try #require(message, "no save failed on a full disk")
        #expect(error.contains("state.sqlite"), "\(error)")
        #expect(error.contains("full"), "\(error)")
        let event = try watcher.event("storage")
        #expect(event["error"] as? String == error)

        // Edits go on answering and take effect in memory.
        try client.ok("move", ["from": 0, "to": 1])
        try client.ok("volume", ["set": 33])
        try client.ok("remove", ["index": 2])
        let expected = try Expected(client)
        #expect(expected.volume == 33)

        unlink(filler)
        let cleared = try watcher.event("storage")
        #expect(cleared["error"] is NSNull)
        #expect(try client.status()["storage_error"] is NSNull)

        daemon.kill9()
        try daemon.start(["--config", try daemon.writeConfig("scan_on_start = false\n")])
        let restored = try Expected(try daemon.client())
        #expect(restored == expected, "restored \(restored), expected \(expected)")
    }

    @Test(.enabled(if: canMakeImmutable, "needs root and chattr"))
    func aReadOnlyDatabaseIsReportedAndEditsAreSavedOnceItIsWritable() throws {
        let daemon = DaemonProcess()
        let state = daemon.dataDirectory + "/state.sqlite"
        let library = daemon.dataDirectory + "/library.sqlite"
        let files = [state, state + "-wal", library, library + "-wal"]
        defer {
            for file in files { Self.chattr("-i", file) }
            daemon.stop()
            daemon.directory.remove()
        }
        try daemon.start()
        try daemon.waitForLibrary()
        let client = try daemon.client()
        let watcher = try daemon.client()
        try watcher.ok("subscribe", ["events": ["storage"]])
        let ids = try client.ok("search")["tracks"] as? [[String: Any]] ?? []
        let trackIDs = ids.compactMap { $0["id"] as? Int }
        try client.ok("add", ["ids": trackIDs])
        for file in files { try #require(Self.chattr("+i", file), "chattr +i \(file)") }

        try client.ok("add", ["ids": trackIDs])
        let error = try #require(try client.status()["storage_error"] as? String)
        #expect(error.contains("state.sqlite"), "\(error)")
        #expect(try watcher.event("storage")["error"] as? String == error)
        try client.ok("mode", ["repeat": "all"])
        let expected = try Expected(client)
        // A scan cannot write the index: a clear answer, not a daemon bug.
        let update = try client.request("update", ["wait": true])
        let failure = update["error"] as? [String: Any]
        #expect(failure?["code"] as? String == "unavailable", "\(update)")
        #expect((failure?["message"] as? String)?.contains("library.sqlite") == true, "\(update)")

        for file in files { Self.chattr("-i", file) }
        #expect(try watcher.event("storage")["error"] is NSNull)
        daemon.kill9()
        try daemon.start(["--config", try daemon.writeConfig("scan_on_start = false\n")])
        #expect(try Expected(try daemon.client()) == expected)
    }

    // MARK: Helpers

    static func mountTmpfs(at path: String, size: String) -> Bool {
        (try? runProcess(
            URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", path]))?
            .status == 0
    }

    static func unmount(_ path: String) {
        _ = try? runProcess(URL(fileURLWithPath: "/bin/umount"), ["-l", path])
    }

    @discardableResult
    static func chattr(_ flag: String, _ path: String) -> Bool {
        (try? runProcess(URL(fileURLWithPath: "/usr/bin/chattr"), [flag, path]))?.status == 0
    }

    /// Writes `path` until the file system is full.
    static func fill(_ path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0x5A, count: 4096)
        while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        var one: UInt8 = 1
        while write(fd, &one, 1) > 0 {}
    }
}
