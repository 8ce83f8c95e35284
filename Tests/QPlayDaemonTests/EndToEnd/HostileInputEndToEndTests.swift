import Foundation
import QPlayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Requests that are nearly right, and sizes and faults a hostile or unlucky user meets,
/// through a real qplayd: a trailing comma, a file path with a trailing slash, alarm days
/// named twice, 100,000 bookmarks, a full disk under `bookmark_add` (docs/RELIABILITY.md).
@Suite("End to end: hostile input", .timeLimit(.minutes(3)))
struct HostileInputEndToEndTests {
    private func errorOf(_ response: [String: Any]) -> (code: String?, message: String) {
        let error = response["error"] as? [String: Any]
        return (error?["code"] as? String, error?["message"] as? String ?? "")
    }

    private func music() throws -> TemporaryDirectory {
        let music = TemporaryDirectory("qplay-hostile-input")
        try music.copy(SampleCatalog.named("untagged.mp3").path, to: music.appending("untagged.mp3"))
        return music
    }

    @Test func nearlyRightRequestsAreRefused() throws {
        let music = try music()
        defer { music.remove() }
        try withDaemon(music: music.path.string) { daemon in
            let client = try daemon.client()
            try client.send(#"{"id":1,"cmd":"ping",}"#)
            let comma = try client.readObject()
            #expect(errorOf(comma).code == "bad_request" && errorOf(comma).message.hasPrefix("invalid JSON"), "\(comma)")

            for path in ["untagged.mp3/", "untagged.mp3/.", music.appending("untagged.mp3").string + "/"] {
                let added = try client.request("add", ["paths": [path]])
                #expect(errorOf(added).code == "bad_request" && errorOf(added).message.contains("not a file"), "\(path): \(added)")
            }
            #expect(try client.ok("queue")["entries"].map { ($0 as? [Any])?.count } == 0)
            #expect(number(try client.ok("add", ["paths": ["untagged.mp3"]])["added"]) == 1, "the file itself is added")

            let days = try client.request("alarm_add", ["time": "07:00", "days": ["mon", "tue", "mon"]])
            #expect(errorOf(days).code == "bad_request" && errorOf(days).message.contains("`mon` twice"), "\(days)")
            let cli = try daemon.qplay("alarm", "07:00", "--days", "mon-fri,fri")
            #expect(cli.status != 0 && cli.stderr.contains("each day once"), "\(cli)")
            #expect((try client.ok("alarm_list")["alarms"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func a100000BookmarkListIsAnsweredAPageAtATime() throws {
        let music = try music()
        defer { music.remove() }
        try withDaemon(music: music.path.string) { daemon in
            var client = try daemon.client()
            try client.ok("add", ["paths": ["untagged.mp3"]])
            try client.ok("pause")
            _ = try client.ok("bookmark_add", ["name": "first"])
            // The rest straight into the state database, daemon stopped: 100,000 in all.
            daemon.stop()
            let insert = try runProcess(
                URL(fileURLWithPath: "/usr/bin/sqlite3"),
                [
                    daemon.dataDirectory + "/state.sqlite",
                    """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 99999)
                    INSERT INTO bookmark (track, position, name, created)
                    SELECT b.track, b.position, 'copy ' || n.i, b.created FROM n, bookmark b WHERE b.id = 1;
                    """,
                ])
            try #require(insert.status == 0, "\(insert)")
            try daemon.start()
            try daemon.waitForLibrary()
            client = try daemon.client()

            try client.send(#"{"id":1,"cmd":"bookmark_list"}"#)
            let line = try client.readLine()
            #expect(line.utf8.count < 1_000_000, "one page, not every bookmark: \(line.utf8.count) bytes")
            let first = try parseObject(line)["result"] as? [String: Any] ?? [:]
            #expect((first["bookmarks"] as? [[String: Any]])?.count == 1000)
            #expect(number(first["total"]) == 100_000 && number(first["start"]) == 0, "\(first.keys)")

            let last = try client.ok("bookmark_list", ["start": 99_990, "count": 50])
            let tail = try #require(last["bookmarks"] as? [[String: Any]])
            #expect(tail.count == 10 && tail.last?["name"] as? String == "copy 99999", "\(tail.last ?? [:])")
            let beyond = try client.ok("bookmark_list", ["start": 100_000])
            #expect((beyond["bookmarks"] as? [Any])?.isEmpty == true && number(beyond["total"]) == 100_000)
            let tooMany = try client.request("bookmark_list", ["count": 100_000])
            #expect(errorOf(tooMany).code == "bad_request", "\(tooMany)")

            // The CLI fetches every page.
            let listed = try daemon.qplay("bookmarks")
            #expect(listed.status == 0, "\(listed.stderr)")
            let rows = listed.stdout.split(separator: "\n")
            #expect(rows.count == 100_000 && rows.first?.contains("first") == true && rows.last?.contains("copy 99999") == true)
        }
    }

    @Test(.enabled(if: StorageFaultEndToEndTests.canMount, "needs root and tmpfs mounts"))
    func aFullDiskUnderBookmarkAddNamesTheStateDatabase() throws {
        let music = try music()
        defer { music.remove() }
        try withDaemon(music: music.path.string, start: false) { daemon in
            try #require(mkdir(daemon.dataDirectory, 0o700) == 0)
            try #require(StorageFaultEndToEndTests.mountTmpfs(at: daemon.dataDirectory, size: "4m"))
            defer { StorageFaultEndToEndTests.unmount(daemon.dataDirectory) }
            try daemon.start()
            try daemon.waitForLibrary()
            let client = try daemon.client()
            try client.ok("add", ["paths": ["untagged.mp3"]])
            try client.ok("pause")
            StorageFaultEndToEndTests.fill(daemon.dataDirectory + "/filler")
            // The WAL reuses its space for a while: bookmark until a write needs more.
            var refusal: [String: Any]?
            for index in 0..<2000 {
                let response = try client.request("bookmark_add", ["name": String(repeating: "x", count: 200) + "\(index)"])
                if response["ok"] as? Bool == false {
                    refusal = response
                    break
                }
            }
            let response = try #require(refusal, "no bookmark_add failed on a full disk")
            let (code, message) = errorOf(response)
            #expect(code == "unavailable", "\(response)")
            #expect(message.contains("state.sqlite") && !message.contains("library.sqlite"), "\(message)")
            #expect(message.contains("full"), "\(message)")
        }
    }
}
