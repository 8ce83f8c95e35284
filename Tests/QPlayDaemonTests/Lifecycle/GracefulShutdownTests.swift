import Foundation
import QPlayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM with a client of every frontend connected — a subscribed JSON client, an MPD
/// client waiting in `idle`, a D-Bus peer watching qplay's MPRIS name, a web remote's
/// subscribed WebSocket that says nothing more — shuts the
/// daemon's service group down in order: every client sees its connection end or the
/// name go, the state is saved, and qplayd exits 0 promptly (docs/arch/daemon.md).
@Suite("Graceful shutdown with every frontend's clients", .serialized, .timeLimit(.minutes(3)))
struct GracefulShutdownTests {
    /// The exit must come within this of the signal. Measured from the signal to the
    /// reaped exit, so a loaded machine only adds to it; the shutdown itself takes a few
    /// hundredths of a second.
    static let exitBound: Duration = .seconds(2)

    @Test func sigtermWithClientsOfAllFrontendsSavesAndExitsZero() throws {
        let port = try FreeTCPPort.probe()
        let webPort = try FreeTCPPort.probe()
        let setup = try BusSetup { _ in ["--mpd", "127.0.0.1:\(port)", "--http", "127.0.0.1:\(webPort)"] }
        defer { setup.close() }
        let daemon = setup.daemon
        try daemon.qplayOK("add", "--where", "album=Bus Album")
        try daemon.qplayOK("next")
        try waitUntil("Beta plays") { try daemon.qplayJSON("status")["state"] as? String == "playing" }

        // The MPRIS peer: a D-Bus monitor of qplay's name, which reports when it goes.
        let destination = "org.mpris.MediaPlayer2.qplay"
        let peer = try LineReadingProcess(
            URL(fileURLWithPath: "/usr/bin/gdbus"),
            ["monitor", "--session", "--dest", destination, "--object-path", "/org/mpris/MediaPlayer2"],
            environment: setup.bus.environment)
        defer { peer.terminate() }
        let owned = peer.line(timeout: 20) { $0.contains("is owned by") }
        #expect(owned.line != nil, "gdbus monitor said \(owned.skipped)")

        let json = try daemon.client()
        #expect(try json.request("subscribe", ["events": ["player", "queue"]])["ok"] as? Bool == true)
        let mpd = try MPDRawClient(port: port)
        try mpd.send("idle")
        // The idle is registered once a later command on another connection wakes it.
        try daemon.qplayOK("vol", "90")
        #expect(try mpd.readAnswer().contains("changed: mixer"))
        try mpd.send("idle")
        // A silent WebSocket: its session must end with the shutdown, not at its idle timeout.
        let web = try WebServerClient(port: webPort)
        #expect(try web.upgrade(origin: "http://127.0.0.1:\(webPort)").status == 101)
        #expect(try web.readObject()["protocol"] as? String == "qplay/1")
        try web.sendText(#"{"id":1,"cmd":"subscribe","args":{"events":["player"]}}"#)
        #expect(try web.readObject()["ok"] as? Bool == true)

        let before = try daemon.qplayJSON("status")
        let positionBefore = try #require(before["position"] as? Double)
        let entry = try #require(before["entry"] as? Int)

        let signalled = ContinuousClock.now
        let status = daemon.stop()
        let took = ContinuousClock.now - signalled
        #expect(status == 0, "exit status \(status):\n\(daemon.log)")
        #expect(took < Self.exitBound, "exited \(took) after SIGTERM:\n\(daemon.log)")
        #expect(daemon.log.contains("saving state and shutting down"), "\(daemon.log)")

        // Every frontend's client saw the end.
        #expect(json.isClosedByServer(within: 5))
        #expect(mpd.isClosedByServer(within: 5))
        #expect(web.isClosedByServer(within: 5))
        let released = peer.line(timeout: 10) { $0.contains("does not have an owner") }
        #expect(released.line != nil, "gdbus monitor said \(released.skipped)")
        // The socket is gone (the next start finds no stale one).
        #expect(access(daemon.socketPath, F_OK) != 0)

        // Saved: the same queue, entry and volume, and the position the shutdown wrote
        // (the once-a-second save would be older than the one read just before).
        try daemon.start()
        let after = try daemon.qplayJSON("status")
        #expect(after["queue_length"] as? Int == 3, "\(after)")
        #expect(after["entry"] as? Int == entry, "\(after)")
        #expect(after["volume"] as? Int == 90, "\(after)")
        let positionAfter = try #require(after["position"] as? Double)
        #expect(positionAfter >= positionBefore, "saved \(positionAfter) s, was at \(positionBefore) s before SIGTERM")
        #expect(daemon.stop() == 0)
    }
}
