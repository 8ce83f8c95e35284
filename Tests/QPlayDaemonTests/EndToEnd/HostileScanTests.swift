import Foundation
import QPlayTestSupport
import SystemPackage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A music directory with a symlink back to itself (`selfloop -> .`), one back up
/// (`A/up -> ..`) and a second name for a folder (`alias -> A`). The whole directory's
/// scan enters each folder once; a scan of one path (JSON `update`, MPD
/// `update`/`rescan`, MPRIS `OpenUri`) must not index through such a link either, or
/// each call adds another copy of the library (docs/RELIABILITY.md).
enum SymlinkLoopMusic {
    static let files = ["A/one.mp3", "A/two.mp3", "B/three.mp3"]

    static func make() throws -> TemporaryDirectory {
        let music = TemporaryDirectory("qplay-loop-music")
        for folder in ["A", "B"] { #expect(mkdir(music.appending(folder).string, 0o755) == 0) }
        for file in files { try music.copy(SampleCatalog.named("untagged.mp3").path, to: music.appending(file)) }
        #expect(symlink(".", music.appending("selfloop").string) == 0)
        #expect(symlink("..", music.appending("A/up").string) == 0)
        // Not a loop, a second name: the whole scan enters A by its own name first.
        #expect(symlink("A", music.appending("alias").string) == 0)
        return music
    }

    static func trackCount(_ daemon: DaemonProcess) throws -> Int? {
        (try daemon.client().ok("stats")["tracks"] as? NSNumber)?.intValue
    }
}

@Suite("End to end: scans of paths through symlink loops", .timeLimit(.minutes(3)))
struct HostileScanTests {
    @Test func jsonUpdateThroughALoopIsRefusedAndAddsNothing() throws {
        let music = try SymlinkLoopMusic.make()
        defer { music.remove() }
        try withDaemon(music: music.path.string) { daemon in
            #expect(try SymlinkLoopMusic.trackCount(daemon) == 3, "the whole scan enters each folder once")
            let client = try daemon.client()
            let paths = ["selfloop", "selfloop/selfloop", "selfloop/A", "selfloop/selfloop/selfloop/B", "A/up", "A/up/B", "alias"]
            for call in 0..<30 {
                let path = paths[call % paths.count]
                let response = try client.request("update", ["path": path, "wait": true])
                let error = response["error"] as? [String: Any]
                #expect(
                    error?["code"] as? String == "bad_request"
                        && (error?["message"] as? String)?.contains("symlink") == true, "\(path): \(response)")
            }
            // A folder holding a link back up is scanned without following it.
            let scanned = try client.ok("update", ["path": "A", "wait": true])
            #expect((scanned["added"] as? NSNumber)?.intValue == 0, "\(scanned)")
            #expect(try SymlinkLoopMusic.trackCount(daemon) == 3)
        }
    }

    @Test func mpdUpdateAndRescanThroughALoopAreRefusedAndAddNothing() throws {
        let music = try SymlinkLoopMusic.make()
        defer { music.remove() }
        let port = try FreeTCPPort.probe()
        try withDaemon(music: music.path.string, arguments: ["--mpd", "127.0.0.1:\(port)"]) { daemon in
            let mpd = try MPDRawClient(port: port)
            for call in 0..<30 {
                let line = ["update selfloop/selfloop", "rescan \"selfloop/A\"", "update alias"][call % 3]
                let answer = try mpd.command(line)
                #expect(answer.last?.hasPrefix("ACK [2@0]") == true && answer.last?.contains("symlink") == true, "\(line): \(answer)")
            }
            #expect(try mpd.command("update A").last == "OK")
            // Scans run one after another: this one ends after every scan asked for above.
            _ = try daemon.client().ok("update", ["path": "B", "wait": true])
            #expect(try SymlinkLoopMusic.trackCount(daemon) == 3)
        }
    }
}

@Suite(
    "End to end: MPRIS OpenUri through a symlink loop", .serialized, .timeLimit(.minutes(3)), .tags(.peer),
    .group(.peer))
struct HostileOpenUriTests {
    @Test func openUriThroughALoopIsRefusedAndAddsNothing() throws {
        let music = try SymlinkLoopMusic.make()
        defer { music.remove() }
        let bus = SessionBus()
        try bus.start()
        defer { bus.kill() }
        try withDaemon(music: music.path.string, sessionBus: bus.address) { daemon in
            let gdbus = GDBus(bus: bus)
            try waitUntil("qplay is on the bus") { (try? gdbus.introspect()) != nil }
            for call in 0..<30 {
                let file = ["selfloop/A/one.mp3", "A/up/selfloop/B/three.mp3", "alias/two.mp3"][call % 3]
                let refused = try gdbus.call("org.mpris.MediaPlayer2.Player.OpenUri", "file://" + music.appending(file).string)
                #expect(refused.status != 0 && refused.stderr.contains("symlink"), "\(file): \(refused)")
            }
            #expect(try SymlinkLoopMusic.trackCount(daemon) == 3)
            #expect(try daemon.client().ok("queue")["entries"].map { ($0 as? [Any])?.count } == 0)
        }
    }
}
