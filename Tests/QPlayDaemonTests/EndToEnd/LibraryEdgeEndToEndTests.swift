import Foundation
import QPlayTestSupport
import SystemPackage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The library's edges through a real qplayd: names that are not UTF-8, `update` of a
/// path that names nothing, and how a scan opens music.
@Suite("End to end: library edges", .timeLimit(.minutes(2)))
struct LibraryEdgeEndToEndTests {
    /// A music folder of its own holding `files` (raw name → sample to copy).
    private func musicFolder(_ files: [([UInt8], String)]) throws -> TemporaryDirectory {
        let music = TemporaryDirectory("qplay-music")
        for (name, sample) in files {
            try music.copy(SampleCatalog.named(sample).path, to: music.appending(rawName: name))
        }
        return music
    }

    private func errorOf(_ response: [String: Any]) -> (code: String?, message: String) {
        let error = response["error"] as? [String: Any]
        return (error?["code"] as? String, error?["message"] as? String ?? "")
    }

    @Test func aNameThatIsNotUTF8IsAddedByThePathSearchShows() throws {
        // Latin-1 "Café.mp3", and two names whose different bytes both show as "x�.mp3".
        let music = try musicFolder([
            (Array("Caf".utf8) + [0xE9] + Array(".mp3".utf8), "Chloé Dubois/Café Crème.mp3"),
            (Array("x".utf8) + [0xE8] + Array(".mp3".utf8), "untagged.mp3"),
            (Array("x".utf8) + [0xE9] + Array(".mp3".utf8), "untagged.mp3"),
        ])
        defer { music.remove() }
        try withDaemon(music: music.path.string) { daemon in
            let client = try daemon.client()
            let found = try client.ok("search", ["where": [["property": "path", "op": "contains", "value": "caf"]]])
            let tracks = try #require(found["tracks"] as? [[String: Any]])
            let shown = try #require(tracks.first?["path"] as? String)
            #expect(tracks.count == 1 && shown == "Caf\u{FFFD}.mp3", "\(tracks)")

            let added = try client.ok("add", ["paths": [shown]])
            #expect(number(added["added"]) == 1, "\(added)")
            let queue = try client.ok("queue")
            let entries = try #require(queue["entries"] as? [[String: Any]])
            #expect((entries.first?["track"] as? [String: Any])?["path"] as? String == shown)

            let ambiguous = try client.request("add", ["paths": ["x\u{FFFD}.mp3"]])
            #expect(ambiguous["ok"] as? Bool == false)
            let (code, message) = errorOf(ambiguous)
            #expect(code == "bad_request" && message.contains("ambiguous") && message.contains("x\u{FFFD}.mp3"), "\(ambiguous)")
            let missing = try client.request("add", ["paths": ["Caf\u{FFFD}\u{FFFD}.mp3"]])
            #expect(errorOf(missing).code == "not_found", "\(missing)")
            #expect(try client.ok("queue")["entries"].map { ($0 as? [Any])?.count } == 1, "a refused add adds nothing")
        }
    }

    @Test func updateOfAPathThatNamesNothingIsNotFound() throws {
        let music = TemporaryDirectory("qplay-music")
        defer { music.remove() }
        for folder in ["Album", "Other"] {
            #expect(mkdir(music.appending(folder).string, 0o755) == 0)
            try music.copy(SampleCatalog.named("untagged.mp3").path, to: music.appending("\(folder)/track.mp3"))
        }
        try withDaemon(music: music.path.string) { daemon in
            let client = try daemon.client()
            for wait in [true, false] {
                let response = try client.request("update", ["path": "No Such Folder", "wait": wait])
                let (code, message) = errorOf(response)
                #expect(code == "not_found" && message.contains("No Such Folder"), "\(response)")
            }
            // A folder that is gone but still indexed is scanned: its track goes.
            #expect(unlink(music.appending("Other/track.mp3").string) == 0)
            #expect(rmdir(music.appending("Other").string) == 0)
            let gone = try client.ok("update", ["path": "Other", "wait": true])
            #expect(number(gone["removed"]) == 1, "\(gone)")
            // Now it names nothing at all.
            let again = try client.request("update", ["path": "Other", "wait": true])
            #expect(errorOf(again).code == "not_found", "\(again)")
            #expect(number(try client.ok("update", ["path": "Album", "wait": true])["removed"]) == 0)
            #expect(number(try client.ok("stats")["tracks"]) == 1)
        }
    }

    /// The whole start-up scan under `strace -f -e trace=openat`: every music file is
    /// opened, none of them for writing.
    @Test(.enabled(if: Self.canTrace, "needs strace and ptrace"))
    func aScanOpensMusicReadOnly() throws {
        let music = try musicFolder([
            (Array("one.mp3".utf8), "untagged.mp3"),
            (Array("two.mp3".utf8), "Chloé Dubois/Café Crème.mp3"),
            (Array("three.mp3".utf8), "untagged.mp3"),
        ])
        defer { music.remove() }
        let daemon = DaemonProcess(music: music.path.string)
        defer { daemon.directory.remove() }
        let tracePath = daemon.directory.appending("openat.trace").string
        let log = open(daemon.logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        #expect(log >= 0)
        defer { close(log) }
        let strace = try SpawnedProcess(
            URL(fileURLWithPath: "/usr/bin/strace"),
            ["-f", "-qq", "-e", "trace=openat,open,creat", "-o", tracePath, BuiltProducts.url("qplayd").path]
                + daemon.standardArguments,
            environment: daemon.environment, stdout: log, stderr: log)
        defer {
            // qplayd is strace's child; strace ends when it does.
            if let child = childProcess(of: strace.pid) { kill(child, SIGTERM) }
            strace.wait()
        }
        try waitUntil("qplayd answers under strace", limit: 60) {
            guard strace.isRunning else { throw LineSocketClient.Failure(description: "strace exited:\n\(daemon.log)") }
            return (try? daemon.client()) != nil
        }
        try daemon.waitForLibrary()
        #expect(number(try daemon.client().ok("stats")["tracks"]) == 3)

        let trace = (try? String(contentsOfFile: tracePath, encoding: .utf8)) ?? ""
        let musicOpens = trace.split(separator: "\n").filter { $0.contains(music.path.string) && $0.contains(".mp3\"") }
        for name in ["one.mp3", "two.mp3", "three.mp3"] {
            #expect(musicOpens.contains { $0.contains("/\(name)\"") }, "\(name) never opened:\n\(trace.suffix(2000))")
        }
        let writable = musicOpens.filter { $0.contains("O_RDWR") || $0.contains("O_WRONLY") }
        #expect(writable.isEmpty, "opened for writing:\n\(writable.joined(separator: "\n"))")
        #expect(musicOpens.allSatisfy { $0.contains("O_RDONLY") && $0.contains("O_NONBLOCK") }, "\(musicOpens)")
    }

    /// strace is installed and may trace a child here (some containers forbid ptrace).
    static let canTrace: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else { return false }
        let probe = try? runProcess(URL(fileURLWithPath: "/usr/bin/strace"), ["-o", "/dev/null", "/bin/true"])
        return probe?.status == 0
    }()

    /// The first child of `pid`, from /proc.
    private func childProcess(of pid: pid_t) -> pid_t? {
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { pid_t($0) }
    }
}
