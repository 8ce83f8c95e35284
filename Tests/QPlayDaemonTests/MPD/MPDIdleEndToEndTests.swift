import Foundation
#if canImport(Glibc)
import Glibc
#endif
import QPlayTestSupport
import Testing

/// `idle`/`noidle` over raw sockets: qplay's events wake idle MPD clients with the
/// subsystem that changed; changes accumulate per connection between idles.
@Suite("End to end: MPD idle", .timeLimit(.minutes(3)))
struct MPDIdleEndToEndTests {
    @Test func idleWakesOnTheSubsystemThatChanged() throws {
        try withMPDDaemon { mpd in
            let watcher = try mpd.client()
            let actor = try mpd.client()

            func wakes(on command: String, subsystems: [String: Bool]) throws {
                try watcher.send("idle")
                #expect(try actor.command(command).last == "OK", "\(command)")
                let answer = try watcher.readAnswer()
                #expect(answer.last == "OK")
                for (subsystem, expected) in subsystems {
                    #expect(answer.contains("changed: \(subsystem)") == expected, "\(command): \(answer)")
                }

            }
            try wakes(on: "add \"Test Tones/Love Songs\"", subsystems: ["playlist": true, "mixer": false])
            try wakes(on: "play 0", subsystems: ["player": true])
            try wakes(on: "setvol 30", subsystems: ["mixer": true, "options": false])
            try wakes(on: "random 1", subsystems: ["options": true, "mixer": false])
            try wakes(on: "next", subsystems: ["player": true])
            try wakes(on: "pause 1", subsystems: ["player": true])
            try wakes(on: "deleteid \(try actor.fields("status")["nextsongid"] ?? "0")", subsystems: ["playlist": true])

            // noidle answers a waiting idle with a bare OK.
            try watcher.send("idle")
            try watcher.send("noidle")
            #expect(try watcher.readAnswer() == ["OK"])

            // Changes made while the client was busy are answered by its next idle at once.
            try actor.command("consume 1")
            try actor.command("setvol 31")
            let pending = try watcher.command("idle")
            #expect(pending.contains("changed: options") && pending.contains("changed: mixer"), "\(pending)")

            // An idle with a list waits for those subsystems only.
            try watcher.send("idle playlist")
            try actor.command("setvol 32")
            try actor.command("clear")
            #expect(try watcher.readAnswer() == ["changed: playlist", "OK"])

            // While idle, anything but noidle ends the connection, as in MPD. (A fresh
            // connection: nothing is pending for it, so its idle waits.)
            let idler = try mpd.client()
            try idler.send("idle")
            try idler.send("status")
            #expect(idler.isClosedByServer())
            #expect(try actor.command("ping") == ["OK"])
        }
    }

    @Test func updateAnswersAJobAndIdleTellsOfTheScan() throws {
        try withMPDDaemon { mpd in
            let watcher = try mpd.client()
            let actor = try mpd.client()
            try watcher.send("idle update")
            let update = try actor.fields("update")
            #expect(Int(update["updating_db"] ?? "") != nil, "\(update)")
            #expect(try watcher.readAnswer() == ["changed: update", "OK"])
        }
    }
}

/// The password rule and the start-up checks of the MPD frontend.
@Suite("End to end: MPD access", .timeLimit(.minutes(3)))
struct MPDAccessEndToEndTests {
    @Test func beforeThePasswordOnlyAFewCommandsWork() throws {
        try withMPDDaemon(config: "mpd_password = \"open sesame\"") { mpd in
            let client = try mpd.client()
            #expect(try client.command("status") == ["ACK [4@0] {status} you don't have permission for \"status\""])
            #expect(try client.command("ping") == ["OK"])
            let allowed = try client.command("commands")
            #expect(allowed.contains("command: password") && !allowed.contains("command: status"), "\(allowed)")
            #expect(try client.command("notcommands").contains("command: status"))
            #expect(try client.command("password wrong") == ["ACK [3@0] {password} incorrect password"])
            #expect(try client.command("add untagged.mp3") == ["ACK [4@0] {add} you don't have permission for \"add\""])
            #expect(try client.command("password \"open sesame\"") == ["OK"])
            #expect(try client.fields("status")["state"] == "stop")
            #expect(try client.command("commands").contains("command: status"))
            // The password holds per connection.
            #expect(try mpd.client().command("currentsong").first?.hasPrefix("ACK [4@0]") == true)
            // And on the Unix socket too, which only its owner may open.
            #expect(try MPDRawClient(path: mpd.socketPath).command("stats").first?.hasPrefix("ACK [4@0]") == true)
            var info = stat()
            #expect(stat(mpd.socketPath, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600)
        }
    }

    @Test func anExposedAddressWithoutAPasswordStopsQPlaydAtStart() throws {
        let daemon = DaemonProcess()
        defer { daemon.directory.remove() }
        let port = try FreeTCPPort.probe()
        let result = try runProcess(
            BuiltProducts.url("qplayd"), daemon.standardArguments + ["--mpd", "0.0.0.0:\(port)"],
            environment: daemon.environment, killAfter: 30)
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stderr.contains("mpd_password"), "\(result.stderr)")
        #expect(result.stderr.contains("0.0.0.0:\(port)"))
    }

    @Test func anAddressInUseIsNamedAndStopsQPlayd() throws {
        try withMPDDaemon { first in
            let second = DaemonProcess()
            defer { second.directory.remove() }
            let result = try runProcess(
                BuiltProducts.url("qplayd"), second.standardArguments + ["--mpd", "127.0.0.1:\(first.port)"],
                environment: second.environment, killAfter: 30)
            #expect(result.status == 78, "\(result.stderr)")
            #expect(result.stderr.contains("127.0.0.1:\(first.port)"), "\(result.stderr)")
            #expect(try first.client().command("ping") == ["OK"], "the first daemon serves on")
        }
    }
}

/// Hostile input on the MPD port: the offender is dropped, everyone else keeps going.
@Suite("End to end: MPD robustness", .timeLimit(.minutes(3)))
struct MPDRobustnessEndToEndTests {
    @Test func aTooLongLineOrGarbageClosesOnlyThatConnection() throws {
        try withMPDDaemon { mpd in
            let bystander = try mpd.client()
            try bystander.command("add \"Test Tones/Love Songs\"")
            try bystander.command("repeat 1")
            try bystander.command("play 0")

            // MPD 0.23 answers lines of up to 8191 bytes and drops a client whose line is longer.
            let fits = try mpd.client()
            #expect(try fits.command("ping " + String(repeating: "a", count: 8191 - 5)).first?.hasPrefix("ACK [2@0] {ping}") == true)
            let long = try mpd.client()
            try long.send(raw: Array(String(repeating: "a", count: 1 << 20).utf8) + [10])
            #expect(long.isClosedByServer())

            // A line that is not MPD's protocol at all: MPD hangs up, and so does qplay.
            let garbage = try mpd.client()
            var bytes: [UInt8] = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
            bytes.append(10)
            try garbage.send(raw: [0xFF, 0x00] + bytes)
            #expect(garbage.isClosedByServer())
            let http = try mpd.client()
            try http.send("GET / HTTP/1.1")
            #expect(http.isClosedByServer())

            // A bad argument only gets an ACK.
            let quirky = try mpd.client()
            #expect(try quirky.command("seekcur abc").first?.hasPrefix("ACK [2@0] {seekcur}") == true)
            #expect(try quirky.command("ping") == ["OK"])

            #expect(try bystander.fields("status")["state"] == "play", "playback goes on")
            #expect(try mpd.client().command("ping") == ["OK"])
            #expect(mpd.daemon.isRunning)
        }
    }

    @Test func aClientThatNeverReadsIsPausedWhileOthersAreServed() throws {
        try withMPDDaemon { mpd in
            let before = try residentBytes(of: mpd.daemon.pid) / 1024
            let hog = try mpd.client()
            // About 1.2 KB an answer: 8 MB of answers, four times the output limit.
            let requests = Array(String(repeating: "listall\n", count: 7000).utf8)
            try hog.send(raw: requests)
            let other = try mpd.client()
            #expect(try other.command("ping") == ["OK"])
            #expect(try other.command("listall").count > 10)
            let during = try residentBytes(of: mpd.daemon.pid) / 1024
            #expect(during - before < 20_000, "RSS grew from \(before) kB to \(during) kB")
            #expect(mpd.daemon.isRunning)
        }
    }
}
