import Foundation
import QPlayTestSupport

/// Runs `body` with a real Icecast on loopback — its `/tone.mp3` mount fed by an ffmpeg
/// MP3 source of `tone` Hz (none when nil) — and a qplayd of an empty music folder
/// (the streams' end-to-end suites).
func withIcecastAndDaemon(
    tone: Int? = 440, arguments: [String] = [], _ body: (IcecastServer, DaemonProcess) throws -> Void
) throws {
    let server = try IcecastServer()
    defer {
        server.stop()
        server.directory.remove()
    }
    try server.start()
    if let tone { try server.startTone(mount: "/tone.mp3", frequency: tone) }
    let music = TemporaryDirectory("qplay-streams-music")
    defer { music.remove() }
    try withDaemon(music: music.path.string, config: "watch = false\n", arguments: arguments, waitForLibrary: false) {
        daemon in
        try body(server, daemon)
    }
}

/// The daemon's capture from sample `offset` on, from its first sounding sample, once
/// that holds `seconds` of sound (44.1 kHz stereo).
func sounding(_ daemon: DaemonProcess, after offset: Int = 0, seconds: Double) throws -> [Int16] {
    var heard: [Int16] = []
    try waitUntil("\(seconds) s of the stream heard", limit: 60) {
        let captured = (try? daemon.capturedSamples()) ?? []
        guard captured.count > offset,
            let first = captured[offset...].firstIndex(where: { abs($0) > 500 })
        else { return false }
        heard = Array(captured[(first - first % 2)...])
        return Double(heard.count) >= seconds * 44100 * 2
    }
    return heard
}
