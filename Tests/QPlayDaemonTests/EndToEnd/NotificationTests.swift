import Foundation
import QPlayTestSupport
import SystemPackage
import Testing

/// Desktop notifications (`notify = true`, docs/BEHAVIOUR.md) with a real notification
/// daemon, Debian's dunst under Xvfb, on a private session bus that `dbus-monitor`
/// watches: what qplayd sent, what dunst answered and what dunst holds. Tracks are made
/// to end by a seek near their end (a seek is not a track change); `qplay next` is the
/// user's.
@Suite("End to end: desktop notifications with dunst", .serialized, .timeLimit(.minutes(3)), .tags(.peer), .group(.peer))
struct NotificationTests {
    static let album: [ToneFixture] = ["Alpha", "Beta", "Gamma", "Delta"].enumerated().map { index, title in
        ToneFixture(
            file: "0\(index + 1) \(title).mp3", title: title, toneHz: 330 + 110 * Double(index), seconds: 20,
            artist: "Notify & <Band>", album: "Notify Album")
    }

    /// The album in `Band/Album/` with a real PNG cover beside it (dunst loads it).
    static func music() throws -> (TemporaryDirectory, cover: String) {
        let music = TemporaryDirectory("qplay-notify-music")
        let staging = TemporaryDirectory("qplay-notify-staging")
        defer { staging.remove() }
        let files = try ToneFixtures.generate(album, in: staging)
        try FileManager.default.createDirectory(
            atPath: music.appending("Band/Album").string, withIntermediateDirectories: true)
        for (file, fixture) in zip(files, album) {
            try FileManager.default.moveItem(atPath: file.string, toPath: music.appending("Band/Album/\(fixture.file)").string)
        }
        let cover = music.appending("Band/Album/Cover.PNG")
        try music.write(GeneratedPictures.png(width: 32, height: 32), to: cover)
        return (music, cover.string)
    }

    /// Moves 1.5 s before the end of `playing` and waits until `next` plays: a track
    /// change nobody asked for.
    static func runOut(_ daemon: DaemonProcess, playing: String, next: String) throws {
        try waitUntil("\(playing) plays") { try daemon.qplayJSON("status").title == playing }
        _ = try daemon.qplayOK("seek", "18.5")
        try waitUntil("\(next) plays after \(playing) ended") { try daemon.qplayJSON("status").title == next }
    }

    @Test func oneNotificationPerTrackThatBeganByItselfReplacingTheFirst() throws {
        let peers = try NotificationPeers()
        defer { peers.close() }
        let (monitor, server) = (peers.monitor, peers.server)
        let (music, cover) = try Self.music()
        defer { music.remove() }
        let daemon = try peers.daemon(music: music)
        defer { daemon.stop() }

        // Started by a command: no notification.
        _ = try daemon.qplayOK("add", "--where", "album=Notify Album")
        try Self.runOut(daemon, playing: "Alpha", next: "Beta")
        try waitUntil("dunst answered the Notify for Beta") { monitor.notifies().first?.returnedID != nil }
        let first = try #require(monitor.notifies().first)
        #expect(first.appName == "qplay")
        #expect(first.replacesID == 0)
        #expect(first.appIcon == "")
        #expect(first.summary == "Beta")
        // dunst reads the body as markup (body-markup): the artist's & and <> are escaped.
        #expect(first.body == "Notify &amp; &lt;Band&gt; – Notify Album")
        #expect(first.actions.isEmpty)
        #expect(first.hints == ["desktop-entry": "qplay", "image-path": cover])
        #expect(first.expireTimeout == -1)
        let id = try #require(first.returnedID)

        // The user's next: Gamma is not announced. Gamma ending: Delta is, replacing Beta's.
        _ = try daemon.qplayOK("next")
        try Self.runOut(daemon, playing: "Gamma", next: "Delta")
        try waitUntil("dunst answered the Notify for Delta") { monitor.notifies().count == 2 && monitor.notifies()[1].returnedID != nil }
        let calls = monitor.notifies()
        #expect(calls.map(\.summary) == ["Beta", "Delta"], "no notification for the track the user chose")
        #expect(calls[1].replacesID == id)
        #expect(calls[1].returnedID == id)
        #expect(calls[1].hints["image-path"] == cover)

        // What dunst holds: qplay's notifications all under the one id, the last one Delta's.
        let held = try server.heldNotifications().filter { $0["appname"] as? String == "qplay" }
        #expect(!held.isEmpty)
        #expect(held.allSatisfy { ($0["id"] as? NSNumber)?.uint32Value == id }, "\(held)")
        #expect(held.first?["summary"] as? String == "Delta", "\(held)")
        #expect(held.first?["icon_path"] as? String == cover, "\(held)")
        #expect(!server.log.contains("Failed to load image"), "dunst could not read the cover: \(server.log)")
        #expect(!server.log.contains("Unable to parse markup"), "\(server.log)")
    }

    /// A 20 s MP3 at `path` in `music` titled `title`, with `cover` as the front cover
    /// (ID3v2 APIC type 3) when there is one.
    static func track(_ title: String, cover: [UInt8]?, at path: String, in music: TemporaryDirectory) throws {
        let staging = TemporaryDirectory("qplay-notify-staging")
        defer { staging.remove() }
        let plain = try GeneratedAudio.sweep(in: staging, name: "plain.mp3", seconds: 20, vbr: false)
        let pictures = cover.map { [GeneratedPictures.APIC(mime: "image/png", type: 3, data: $0)] } ?? []
        let file = music.appending(path)
        try FileManager.default.createDirectory(
            atPath: file.removingLastComponent().string, withIntermediateDirectories: true)
        try music.write(GeneratedPictures.id3v2Tag(pictures, title: title) + TemporaryDirectory.read(plain), to: file)
    }

    /// A track's embedded front cover is its picture, written out to qplayd's art cache:
    /// with no image beside it, and before one (the folder image only when there is no
    /// embedded cover, above).
    @Test func theEmbeddedFrontCoverIsShownFromTheArtCache() throws {
        let peers = try NotificationPeers()
        defer { peers.close() }
        let (monitor, server) = (peers.monitor, peers.server)
        let music = TemporaryDirectory("qplay-notify-embedded")
        defer { music.remove() }
        let inside = GeneratedPictures.png(width: 40, height: 40, seed: 7)
        let both = GeneratedPictures.png(width: 48, height: 48, seed: 9)
        try Self.track("Lead", cover: nil, at: "1 Embedded/01 Lead.mp3", in: music)
        try Self.track("Inside", cover: inside, at: "1 Embedded/02 Inside.mp3", in: music)
        try Self.track("Both", cover: both, at: "2 Both/03 Both.mp3", in: music)
        try music.write(GeneratedPictures.png(width: 16, height: 16, seed: 8), to: music.appending("2 Both/cover.png"))
        let daemon = try peers.daemon(music: music)
        defer { daemon.stop() }

        for title in ["Lead", "Inside", "Both"] { _ = try daemon.qplayOK("add", title) }
        try Self.runOut(daemon, playing: "Lead", next: "Inside")
        try Self.runOut(daemon, playing: "Inside", next: "Both")
        try waitUntil("dunst answered the Notify for Both") {
            monitor.notifies().count == 2 && monitor.notifies().allSatisfy { $0.returnedID != nil }
        }
        let calls = monitor.notifies()
        #expect(calls.map(\.summary) == ["Inside", "Both"])
        let cache = daemon.directory.appending("xdg-cache/qplay/art").string + "/"
        for (call, cover) in zip(calls, [inside, both]) {
            let image = try #require(call.hints["image-path"], "\(call)")
            #expect(image.hasPrefix(cache), "\(call.summary): \(image)")
            #expect(try TemporaryDirectory.read(FilePath(image)) == cover, "\(call.summary): \(image)")
        }
        let held = try server.heldNotifications().filter { $0["appname"] as? String == "qplay" }
        #expect(held.first?["summary"] as? String == "Both", "\(held)")
        #expect(held.first?["icon_path"] as? String == calls.last?.hints["image-path"], "\(held)")
        #expect(!server.log.contains("Failed to load image"), "dunst could not read the cover: \(server.log)")
    }

    @Test func anAlarmsTrackIsNotified() throws {
        AlarmEndToEndTests.awayFromMidnight(10)
        let peers = try NotificationPeers()
        defer { peers.close() }
        let monitor = peers.monitor
        let (music, _) = try Self.music()
        defer { music.remove() }
        let daemon = try peers.daemon(music: music)
        defer { daemon.stop() }

        _ = try daemon.qplayOK("alarm", AlarmEndToEndTests.localTime(in: 3), "Gamma")
        try waitUntil("the alarm plays Gamma") { try daemon.qplayJSON("status").title == "Gamma" }
        try waitUntil("dunst answered the Notify for Gamma") { monitor.notifies().first?.returnedID != nil }
        #expect(monitor.notifies().map(\.summary) == ["Gamma"])
    }

    @Test func withoutANotificationDaemonPlaybackGoesOnAndTheAbsenceIsLoggedOnce() throws {
        let peers = try NotificationPeers(startingServer: false)
        defer { peers.close() }
        let monitor = peers.monitor
        let (music, cover) = try Self.music()
        defer { music.remove() }
        let daemon = try peers.daemon(music: music)
        defer { daemon.stop() }

        _ = try daemon.qplayOK("add", "--where", "album=Notify Album")
        try Self.runOut(daemon, playing: "Alpha", next: "Beta")
        try waitUntil("the failed Notify is logged") { daemon.log.contains("notifications: no notification shown") }
        try Self.runOut(daemon, playing: "Beta", next: "Gamma")
        try waitUntil("qplayd tried again for Gamma") { monitor.notifies().map(\.summary) == ["Beta", "Gamma"] }
        #expect(monitor.notifies().allSatisfy { $0.returnedID == nil })

        // Playing on, and answering.
        #expect(try daemon.qplay("ping").status == 0)
        let before = try #require(try daemon.qplayJSON("status")["position"] as? Double)
        try waitUntil("Gamma's position moves on") { (try daemon.qplayJSON("status")["position"] as? Double ?? 0) > before }
        #expect(try daemon.qplayJSON("status")["state"] as? String == "playing")
        let logged = daemon.log.components(separatedBy: "\n").filter { $0.contains("notifications: no notification shown") }
        #expect(logged.count == 1, "\(logged)")
        #expect(logged.first?.contains("ServiceUnknown") == true, "\(logged)")

        // A notification daemon that comes later gets the next track.
        let server = peers.server
        try server.start()
        try Self.runOut(daemon, playing: "Gamma", next: "Delta")
        try waitUntil("dunst answered the Notify for Delta") { monitor.notifies().last?.returnedID != nil }
        let last = try #require(monitor.notifies().last)
        #expect(last.summary == "Delta")
        #expect(last.replacesID == 0)
        #expect(last.hints["image-path"] == cover)
    }
}

extension [String: Any] {
    fileprivate var title: String? { (self["track"] as? [String: Any])?["title"] as? String }
}
