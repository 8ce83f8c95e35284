import Foundation
import QPlayModel
import QPlayTestSupport
import SystemPackage
import Testing

/// MPRIS on a private D-Bus session bus (a real dbus-daemon), driven by the real
/// `playerctl` and `gdbus` (docs/MPRIS.md): each command is checked against `qplay status` and
/// against what the `file:` capture plays.
@Suite("End to end: MPRIS with playerctl and gdbus", .serialized, .timeLimit(.minutes(3)), .tags(.peer), .group(.peer))
struct MPRISTests {
    /// Three 40 s tones in one album folder with a cover beside them.
    static let album: [ToneFixture] = [
        ToneFixture(file: "01 Alpha.mp3", title: "Alpha", toneHz: 262, seconds: 40, artist: "Tone Band", album: "Bus Album"),
        ToneFixture(file: "02 Beta.mp3", title: "Beta", toneHz: 415, seconds: 40, artist: "Tone Band", album: "Bus Album"),
        ToneFixture(file: "03 Gamma.mp3", title: "Gamma", toneHz: 659, seconds: 40, artist: "Tone Band", album: "Bus Album"),
    ]

    /// A music folder with the album in `Band/Album/` and a cover.jpg beside it.
    static func music() throws -> TemporaryDirectory {
        let music = TemporaryDirectory("qplay-mpris-music")
        let staging = TemporaryDirectory("qplay-mpris-staging")
        defer { staging.remove() }
        let files = try ToneFixtures.generate(album, in: staging)
        try FileManager.default.createDirectory(
            atPath: music.appending("Band/Album").string, withIntermediateDirectories: true)
        for (file, fixture) in zip(files, album) {
            try FileManager.default.moveItem(atPath: file.string, toPath: music.appending("Band/Album/\(fixture.file)").string)
        }
        try music.write(Array("not really a JPEG".utf8), to: music.appending("Band/Album/cover.jpg"))
        return music
    }

    /// A started bus and a daemon serving `music` on it.
    static func daemon(on bus: SessionBus, music: TemporaryDirectory, arguments: [String] = []) throws -> DaemonProcess {
        let daemon = DaemonProcess(music: music.path.string)
        daemon.sessionBusAddress = bus.address
        try daemon.start(arguments)
        try daemon.waitForLibrary()
        return daemon
    }

    @Test func playerctlDrivesTheDaemon() throws {
        let setup = try BusSetup()
        defer { setup.close() }
        let daemon = setup.daemon
        let bus = setup.bus
        let music = setup.music
        let ctl = Playerctl(bus: bus)
        try waitUntil("playerctl lists qplay") { try ctl.run("-l").split(separator: "\n").contains("qplay") }

        // Nothing current: the NoTrack id and no other keys.
        #expect(try ctl.run("-p", "qplay", "status") == "Stopped")
        let empty = try bus.run(
            "gdbus", ["call", "--session", "--dest", "org.mpris.MediaPlayer2.qplay", "--object-path",
                      "/org/mpris/MediaPlayer2", "--method", "org.freedesktop.DBus.Properties.Get",
                      "org.mpris.MediaPlayer2.Player", "Metadata"])
        #expect(empty.stdout.contains("/org/mpris/MediaPlayer2/TrackList/NoTrack"), "\(empty)")
        #expect(!empty.stdout.contains("xesam"), "\(empty)")

        try daemon.qplayOK("add", "--where", "album=Bus Album")
        try waitUntil("Alpha plays") { try daemon.qplayJSON("status")["state"] as? String == "playing" }
        #expect(try ctl.run("-p", "qplay", "status") == "Playing")
        try expectTone(0, daemon)

        // Metadata as MPRIS clients read it.
        let status = try daemon.qplayJSON("status")
        let entry = try #require(status["entry"] as? Int)
        #expect(try ctl.run("-p", "qplay", "metadata", "--format", "{{title}}|{{artist}}|{{album}}") == "Alpha|Tone Band|Bus Album")
        // playerctl quotes object paths.
        #expect(try ctl.run("-p", "qplay", "metadata", "mpris:trackid") == "'/org/qplay/entry/\(entry)'")
        let length = try #require(Int(try ctl.run("-p", "qplay", "metadata", "mpris:length")))
        #expect(abs(length - 40_000_000) < 100_000, "length \(length) µs")
        #expect(try ctl.run("-p", "qplay", "metadata", "xesam:trackNumber") == "1")
        let url = try ctl.run("-p", "qplay", "metadata", "xesam:url")
        #expect(url == "file://" + music.appending("Band/Album/01%20Alpha.mp3").string)
        #expect(try ctl.run("-p", "qplay", "metadata", "mpris:artUrl") == "file://" + music.appending("Band/Album/cover.jpg").string)

        // play-pause: paused, and the capture stops growing.
        try ctl.run("-p", "qplay", "play-pause")
        #expect(try daemon.qplayJSON("status")["state"] as? String == "paused")
        #expect(try ctl.run("-p", "qplay", "status") == "Paused")
        usleep(500_000)
        let pausedSize = try captureSize(daemon)
        usleep(700_000)
        let heardWhilePaused = try daemon.capturedSamples().dropFirst(pausedSize / 2)
        #expect(heardWhilePaused.allSatisfy { abs(Int($0)) < 64 }, "no tone while paused")
        try ctl.run("-p", "qplay", "play-pause")
        #expect(try daemon.qplayJSON("status")["state"] as? String == "playing")

        // next and previous (within 3 s of the start: the previous entry).
        try ctl.run("-p", "qplay", "next")
        #expect(title(try daemon.qplayJSON("status")) == "Beta")
        try expectTone(1, daemon)
        #expect(try ctl.run("-p", "qplay", "metadata", "title") == "Beta")
        try ctl.run("-p", "qplay", "previous")
        #expect(title(try daemon.qplayJSON("status")) == "Alpha")
        try expectTone(0, daemon)

        // position: absolute (SetPosition with the current trackid) and relative (Seek).
        try ctl.run("-p", "qplay", "position", "10")
        let absolute = try #require(number(try daemon.qplayJSON("status")["position"]))
        #expect(absolute >= 10 && absolute < 13, "position \(absolute)")
        try ctl.run("-p", "qplay", "position", "5+")
        let relative = try #require(number(try daemon.qplayJSON("status")["position"]))
        #expect(relative >= 15 && relative < 19, "position \(relative)")
        let reported = try #require(Double(try ctl.run("-p", "qplay", "position")))
        #expect(reported >= 15 && reported < 21, "playerctl position \(reported)")

        // volume, loop, shuffle.
        try ctl.run("-p", "qplay", "volume", "0.5")
        #expect(try daemon.qplayJSON("status")["volume"] as? Int == 50)
        #expect(try ctl.run("-p", "qplay", "volume") == "0.500000")
        try ctl.run("-p", "qplay", "loop", "Track")
        #expect(try daemon.qplayJSON("status")["repeat"] as? String == "one")
        #expect(try ctl.run("-p", "qplay", "loop") == "Track")
        try ctl.run("-p", "qplay", "loop", "Playlist")
        #expect(try daemon.qplayJSON("status")["repeat"] as? String == "all")
        try ctl.run("-p", "qplay", "shuffle", "On")
        #expect(try daemon.qplayJSON("status")["shuffle"] as? Bool == true)
        #expect(try ctl.run("-p", "qplay", "shuffle") == "On")

        // Changes made elsewhere are seen by MPRIS clients.
        try daemon.qplayOK("vol", "30")
        #expect(try ctl.run("-p", "qplay", "volume") == "0.300000")

        try ctl.run("-p", "qplay", "stop")
        #expect(try daemon.qplayJSON("status")["state"] as? String == "stopped")
        #expect(try ctl.run("-p", "qplay", "status") == "Stopped")
        // Play after Stop: the current entry from its start.
        try ctl.run("-p", "qplay", "play")
        let restarted = try daemon.qplayJSON("status")
        #expect(restarted["state"] as? String == "playing" && title(restarted) == "Alpha")
        #expect(number(restarted["position"]) ?? 99 < 3)
    }

    @Test func introspectionStaleTrackIDsAndOpenUri() throws {
        // No watcher: the file copied in later is indexed by OpenUri itself.
        let setup = try BusSetup(arguments: ["--no-watch"])
        defer { setup.close() }
        let daemon = setup.daemon
        let bus = setup.bus
        let music = setup.music
        let gdbus = GDBus(bus: bus)
        try waitUntil("qplay is on the bus") { (try? gdbus.introspect()) != nil }
        let xml = try gdbus.introspect()
        #expect(xml.contains("interface org.mpris.MediaPlayer2 {"), "\(xml)")
        #expect(xml.contains("interface org.mpris.MediaPlayer2.Player {"), "\(xml)")
        #expect(xml.contains("SetPosition(in  o TrackId,"), "\(xml)")
        #expect(xml.contains("readonly as SupportedUriSchemes"))
        #expect(try gdbus.get("org.mpris.MediaPlayer2", "Identity") == "(<'qplay'>,)")
        #expect(try gdbus.get("org.mpris.MediaPlayer2", "SupportedUriSchemes") == "(<['file', 'http', 'https']>,)")
        let mimeTypes = AudioFileFormat.allMimeTypes.map { "'\($0)'" }.joined(separator: ", ")
        #expect(try gdbus.get("org.mpris.MediaPlayer2", "SupportedMimeTypes") == "(<[\(mimeTypes)]>,)")
        #expect(try gdbus.get("org.mpris.MediaPlayer2.Player", "CanGoNext") == "(<false>,)")

        try daemon.qplayOK("add", "--where", "album=Bus Album")
        try waitUntil("Alpha plays") { number(try daemon.qplayJSON("status")["position"]) ?? 0 > 0.2 }
        try waitUntil("CanGoNext turns true") { try gdbus.get("org.mpris.MediaPlayer2.Player", "CanGoNext") == "(<true>,)" }
        #expect(try gdbus.get("org.mpris.MediaPlayer2.Player", "Rate") == "(<1.0>,)")

        // SetPosition with a trackid that is not the current entry's: ignored.
        let stale = try gdbus.call("org.mpris.MediaPlayer2.Player.SetPosition", "/org/qplay/entry/999999", "20000000")
        #expect(stale.status == 0, "\(stale)")
        #expect(number(try daemon.qplayJSON("status")["position"]) ?? 99 < 10)
        let entry = try #require(try daemon.qplayJSON("status")["entry"] as? Int)
        _ = try gdbus.call("org.mpris.MediaPlayer2.Player.SetPosition", "/org/qplay/entry/\(entry)", "20000000")
        #expect(number(try daemon.qplayJSON("status")["position"]) ?? 0 >= 20)

        // A writable property refuses a value outside its set.
        let badLoop = try gdbus.call(
            "org.freedesktop.DBus.Properties.Set", "org.mpris.MediaPlayer2.Player", "LoopStatus", "<'Sometimes'>")
        #expect(badLoop.status != 0 && badLoop.stderr.contains("InvalidArgs"), "\(badLoop)")
        // Rate is read-write as MPRIS makes it, with only the normal speed: a set of 1.0
        // is accepted, any other value too but changes nothing; a wrong type is refused.
        #expect(xml.contains("readwrite d Rate = 1.0;"), "\(xml)")
        #expect(xml.contains("readonly d MinimumRate = 1.0;"), "\(xml)")
        #expect(xml.contains("readonly d MaximumRate = 1.0;"), "\(xml)")
        let before = try daemon.qplayJSON("status")
        for rate in ["<1.0>", "<2.0>", "<0.0>"] {
            let set = try gdbus.call("org.freedesktop.DBus.Properties.Set", "org.mpris.MediaPlayer2.Player", "Rate", rate)
            #expect(set.status == 0, "\(rate): \(set)")
            #expect(try gdbus.get("org.mpris.MediaPlayer2.Player", "Rate") == "(<1.0>,)")
        }
        let wrongType = try gdbus.call(
            "org.freedesktop.DBus.Properties.Set", "org.mpris.MediaPlayer2.Player", "Rate", "<'fast'>")
        #expect(wrongType.status != 0, "\(wrongType)")
        let after = try daemon.qplayJSON("status")
        #expect(after["state"] as? String == "playing" && after["entry"] as? Int == before["entry"] as? Int)
        let readOnly = try gdbus.call(
            "org.freedesktop.DBus.Properties.Set", "org.mpris.MediaPlayer2.Player", "MaximumRate", "<2.0>")
        #expect(readOnly.status != 0 && readOnly.stderr.contains("PropertyReadOnly"), "\(readOnly)")

        // OpenUri: a file not indexed yet is indexed, added after the playing entry, played.
        let staging = TemporaryDirectory("qplay-mpris-new")
        defer { staging.remove() }
        let late = ToneFixture(file: "late.mp3", title: "Late Arrival", toneHz: 988, seconds: 20, album: "Late")
        let made = try ToneFixtures.generate([late], in: staging)
        try FileManager.default.createDirectory(atPath: music.appending("New").string, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: made[0].string, toPath: music.appending("New/late arrival.mp3").string)
        let uri = "file://" + music.appending("New/late%20arrival.mp3").string
        let opened = try gdbus.call("org.mpris.MediaPlayer2.Player.OpenUri", uri)
        #expect(opened.status == 0, "\(opened)")
        let status = try daemon.qplayJSON("status")
        #expect(title(status) == "Late Arrival" && status["state"] as? String == "playing")
        #expect(status["index"] as? Int == 1, "after the entry that was playing")
        try expectTone(tones: [988], 0, daemon)

        // Outside the music directory, another scheme, a missing file, a playlist URL that
        // cannot be fetched: D-Bus errors.
        for bad in [
            "file:///etc/passwd", "ftp://example.invalid/x.mp3", "file://" + music.appending("gone.mp3").string,
            "http://127.0.0.1:9/radio.m3u",
        ] {
            let refused = try gdbus.call("org.mpris.MediaPlayer2.Player.OpenUri", bad)
            #expect(refused.status != 0, "\(bad): \(refused)")
        }
        #expect(title(try daemon.qplayJSON("status")) == "Late Arrival", "nothing else changed")

        // A stream URL joins after the playing entry, as `add` with `urls` adds it (its
        // path on the wire is the URL as given), and plays: contacted then (nothing listens
        // on port 9), it is skipped with its reason.
        let stream = "http://127.0.0.1:9/radio.mp3"
        let streamed = try gdbus.call("org.mpris.MediaPlayer2.Player.OpenUri", stream)
        #expect(streamed.status == 0, "\(streamed)")
        let entries = try #require(try daemon.qplayJSON("queue")["entries"] as? [[String: Any]])
        #expect(entries.count > 2 && (entries[2]["track"] as? [String: Any])?["path"] as? String == stream, "\(entries)")
        #expect(daemon.isRunning)
    }

    @Test func followSeesTheNewTitleAtATrackChange() throws {
        let setup = try BusSetup()
        defer { setup.close() }
        let daemon = setup.daemon
        let bus = setup.bus
        try daemon.qplayOK("add", "--where", "album=Bus Album")
        let ctl = Playerctl(bus: bus)
        try waitUntil("qplay is on the bus") { try ctl.run("-p", "qplay", "status") == "Playing" }
        let follow = try LineReadingProcess(
            URL(fileURLWithPath: "/usr/bin/playerctl"), ["-p", "qplay", "--follow", "metadata", "title"],
            environment: bus.environment)
        defer { follow.terminate() }
        #expect(follow.nextLine() == "Alpha")
        try daemon.qplayOK("next")
        #expect(follow.line { $0 == "Beta" }.line == "Beta")
        try daemon.qplayOK("jump", "3")
        #expect(follow.line { $0 == "Gamma" }.line == "Gamma")
    }

    @Test func seekedFollowsEveryJumpWhoeverMadeIt() throws {
        let setup = try BusSetup(arguments: { music in ["--config", try Self.tapConfig(music)] })
        defer { setup.close() }
        let daemon = setup.daemon
        let bus = setup.bus
        let ctl = Playerctl(bus: bus)
        try daemon.qplayOK("add", "--where", "album=Bus Album")
        try waitUntil("qplay is on the bus") { try ctl.run("-p", "qplay", "status") == "Playing" }
        let monitor = try LineReadingProcess(
            URL(fileURLWithPath: "/usr/bin/gdbus"),
            ["monitor", "--session", "--dest", "org.mpris.MediaPlayer2.qplay", "--object-path", "/org/mpris/MediaPlayer2"],
            environment: bus.environment)
        defer { monitor.terminate() }
        #expect(monitor.nextLine()?.contains("Monitoring signals") == true)
        // gdbus prints `…Player.Seeked (int64 10000000,)`: the position in µs.
        func nextSeek() -> Double? {
            guard let line = monitor.line(where: { $0.contains(".Seeked (") }).line,
                let number = line.split(separator: "int64 ").last?.prefix(while: \.isNumber)
            else { return nil }
            return Double(number).map { $0 / 1_000_000 }
        }

        try ctl.run("-p", "qplay", "position", "10")
        let bySetPosition = try #require(nextSeek())
        #expect(bySetPosition >= 10 && bySetPosition < 12, "\(bySetPosition)")
        try ctl.run("-p", "qplay", "position", "5+")
        let bySeek = try #require(nextSeek())
        #expect(bySeek >= 15 && bySeek < 18, "\(bySeek)")
        // Another frontend's seek.
        try daemon.qplayOK("seek", "25")
        let byQplay = try #require(nextSeek())
        #expect(byQplay >= 25 && byQplay < 28, "\(byQplay)")
        // Previous after 3 s restarts the track.
        try ctl.run("-p", "qplay", "previous")
        let restart = try #require(nextSeek())
        #expect(restart < 2, "\(restart)")
        #expect(title(try daemon.qplayJSON("status")) == "Alpha")
        // A hold of next scans; its end is a jump.
        try daemon.qplayOK("press", "next")
        try waitUntil("the hold scans") { try daemon.qplayJSON("status")["seeking"] as? String == "forward" }
        usleep(1_000_000)
        try daemon.qplayOK("release", "next")
        let afterScan = try #require(nextSeek())
        let position = try #require(number(try daemon.qplayJSON("status")["position"]))
        #expect(afterScan > 2 && abs(afterScan - position) < 2, "Seeked \(afterScan), status \(position)")
    }

    /// A config with a short tap threshold (holds start soon) beside the music.
    static func tapConfig(_ music: TemporaryDirectory) throws -> String {
        let path = music.appending("tap.toml")
        try music.write(Array("tap_threshold_ms = 200\n".utf8), to: path)
        return path.string
    }

    @Test func aBusThatDiesDoesNotStopPlaybackAndANewOneIsServed() throws {
        let setup = try BusSetup()
        defer { setup.close() }
        let daemon = setup.daemon
        let bus = setup.bus
        let ctl = Playerctl(bus: bus)
        try daemon.qplayOK("add", "--where", "album=Bus Album")
        try waitUntil("qplay is on the bus") { try ctl.run("-p", "qplay", "status") == "Playing" }

        bus.kill()
        try waitUntil("the loss is logged") { daemon.log.contains("D-Bus: the session bus") }
        let before = try #require(number(try daemon.qplayJSON("status")["position"]))
        let size = try captureSize(daemon)
        usleep(1_000_000)
        let after = try daemon.qplayJSON("status")
        #expect(after["state"] as? String == "playing")
        #expect(number(after["position"]) ?? 0 > before, "the position moves on")
        #expect(try captureSize(daemon) > size, "the output is still written")
        try expectTone(0, daemon)

        // A new bus at the same address: qplayd comes back within its 5 s retry.
        try bus.start()
        try waitUntil("qplay is back on the new bus", limit: 30) {
            (try? ctl.run("-p", "qplay", "status")) == "Playing"
        }
        try ctl.run("-p", "qplay", "next")
        #expect(title(try daemon.qplayJSON("status")) == "Beta")
        #expect(daemon.isRunning)
    }

    @Test func aBusMissingAtStartUpIsServedOnceItIsThere() throws {
        let music = try Self.music()
        defer { music.remove() }
        let bus = SessionBus()
        try withDaemon(music: music.path.string, sessionBus: bus.address, waitForLibrary: false) { daemon in
            try waitUntil("the missing bus is logged") { daemon.log.contains("cannot connect to the D-Bus session bus") }
            #expect(try daemon.client().status()["state"] as? String == "stopped", "the daemon serves without a bus")
            try bus.start()
            let ctl = Playerctl(bus: bus)
            try waitUntil("qplay appears on the bus", limit: 30) {
                (try? ctl.run("-l"))?.split(separator: "\n").contains("qplay") == true
            }
        }
    }

    @Test func aTakenNameGivesAnInstanceNameAndNoMPRISLeavesTheBusAlone() throws {
        // The first daemon owns the plain name.
        let setup = try BusSetup()
        defer { setup.close() }
        let bus = setup.bus
        let music = setup.music
        let ctl = Playerctl(bus: bus)
        try waitUntil("the first is on the bus") { try ctl.run("-l").split(separator: "\n").contains("qplay") }
        let second = try Self.daemon(on: bus, music: music)
        defer {
            second.stop()
            second.directory.remove()
        }
        try waitUntil("the second is on the bus") {
            try ctl.run("-l").split(separator: "\n").contains("qplay.instance\(second.pid)")
        }
        #expect(second.log.contains("D-Bus: org.mpris.MediaPlayer2.qplay is owned by another player"))

        let off = try Self.daemon(on: bus, music: music, arguments: ["--no-mpris"])
        defer {
            off.stop()
            off.directory.remove()
        }
        usleep(500_000)
        let names = try ctl.run("-l").split(separator: "\n")
        #expect(!names.contains("qplay.instance\(off.pid)"), "\(names)")
        #expect(off.log.contains("MPRIS off"))
    }

    // MARK: Helpers

    /// The capture's size in bytes.
    func captureSize(_ daemon: DaemonProcess) throws -> Int {
        (try? FileManager.default.attributesOfItem(atPath: daemon.capturePath)[.size] as? Int) ?? 0
    }

    /// The last quarter second of the capture, once it has grown by half a second
    /// (after a command the output has moved on), sounds tone `index` of the album.
    func expectTone(tones: [Double] = album.map(\.toneHz), _ index: Int, _ daemon: DaemonProcess) throws {
        let start = try captureSize(daemon)
        try waitUntil("the capture grows") { try captureSize(daemon) >= start + 88_200 }
        let samples = try daemon.capturedSamples()
        let tail = samples.suffix(22_050)
        let hz = ToneAnalysis.frequency(of: Array(tail), channels: 2, sampleRate: 44100)
        let nearest = tones.indices.min { abs(tones[$0] - hz) < abs(tones[$1] - hz) }
        #expect(nearest == index && abs(tones[index] - hz) < tones[index] * 0.03, "heard \(hz) Hz, expected \(tones[index])")
    }
}

/// A private bus, the album's music folder and a qplayd serving both, for one test.
final class BusSetup {
    let music: TemporaryDirectory
    let bus = SessionBus()
    let daemon: DaemonProcess

    /// `arguments`: qplayd's extra arguments, from the music folder (a config beside it).
    init(arguments: (TemporaryDirectory) throws -> [String] = { _ in [] }) throws {
        music = try MPRISTests.music()
        do {
            try bus.start()
            daemon = try MPRISTests.daemon(on: bus, music: music, arguments: try arguments(music))
        } catch {
            music.remove()
            throw error
        }
    }

    convenience init(arguments: [String]) throws {
        try self.init(arguments: { _ in arguments })
    }

    func close() {
        daemon.stop()
        daemon.directory.remove()
        music.remove()
    }
}

/// The real playerctl on a test bus.
struct Playerctl {
    let bus: SessionBus

    /// Its standard output without the final newline; a failure throws.
    @discardableResult
    func run(_ arguments: String...) throws -> String {
        let result = try bus.run("playerctl", arguments)
        guard result.status == 0 else {
            throw LineSocketClient.Failure(description: "playerctl \(arguments) exited \(result.status): \(result.stderr)")
        }
        return result.stdout.trimmingCharacters(in: .newlines)
    }
}

/// The real gdbus on a test bus, talking to qplay's MPRIS object.
struct GDBus {
    let bus: SessionBus
    let destination = "org.mpris.MediaPlayer2.qplay"

    func introspect() throws -> String {
        let result = try bus.run(
            "gdbus", ["introspect", "--session", "--dest", destination, "--object-path", "/org/mpris/MediaPlayer2"])
        guard result.status == 0 else { throw LineSocketClient.Failure(description: "introspect: \(result.stderr)") }
        return result.stdout
    }

    func get(_ interface: String, _ property: String) throws -> String {
        let result = try call("org.freedesktop.DBus.Properties.Get", interface, property)
        guard result.status == 0 else { throw LineSocketClient.Failure(description: "Get \(property): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func call(_ method: String, _ arguments: String...) throws -> ProcessResult {
        try bus.run(
            "gdbus",
            ["call", "--session", "--dest", destination, "--object-path", "/org/mpris/MediaPlayer2", "--method", method]
                + arguments)
    }
}
