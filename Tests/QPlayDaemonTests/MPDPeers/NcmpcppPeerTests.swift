import Foundation
import QPlayTestSupport
import Testing

/// ncmpcpp (0.9.2), a full-screen client, in a detached tmux of its own (`-L`, so no
/// other tmux server is touched) against the real MPD and qplayd's MPD frontend: it
/// connects, its playlist view shows the playing track, and its `p` key pauses.
@Suite(.serialized, .tags(.peer), .group(.peer))
struct NcmpcppPeerTests {
    @Test(arguments: MPDPeerKind.tested)
    func showsPlayingTrackAndPauses(_ kind: MPDPeerKind) throws {
        let library = try peerLibrary()
        defer { library.remove() }
        try withPeer(kind, music: library.path.string) { peer in
            try peer.mpcLines("add", "Peer Tones/Long Player/01 First Long.mp3", "Test Tones/Day Cycle/01 Morning.mp3")
            try peer.mpcLines("play")

            // ncmpcpp writes its settings and lyrics folders under HOME: a private one.
            let home = TemporaryDirectory("ncmpcpp-home")
            defer { home.remove() }
            let tmux = TmuxSession(name: "qplay-ncmpcpp-\(getpid())", home: home.path.string)
            defer { tmux.end() }
            try tmux.start("ncmpcpp -h \(peer.host) -p \(peer.port)")

            _ = try tmux.waitForScreen("the playlist with the playing title") {
                $0.contains("First Long") && $0.contains("Morning") && $0.contains("Playlist (2 items")
            }
            // The playing row is drawn bold (SGR 1), the other not.
            let rows = try tmux.screen(attributes: true).split(separator: "\n")
            let playing = rows.first { $0.contains("First Long") } ?? ""
            let waiting = rows.first { $0.contains("Morning") } ?? ""
            #expect(playing.contains("\u{1B}[1m") && !waiting.contains("\u{1B}[1m"), "\(kind):\n\(rows.joined(separator: "\n"))")

            try tmux.sendKeys("p")
            try waitUntil("\(kind) paused by ncmpcpp's p", limit: 20) {
                try peer.mpcLines("status").dropFirst().first?.hasPrefix("[paused]") == true
            }
            if let daemon = peer.daemon {
                // qplay's own protocol agrees.
                #expect(try daemon.client().status()["state"] as? String == "paused")
            }
            // Its status line shows the pause once the "Connected" message has timed out.
            _ = try tmux.waitForScreen("ncmpcpp showing the pause") { $0.contains("Paused: Peer Tones \"Long Player\" (2021) - First Long") }
            #expect(tmux.isAlive, "\(kind): ncmpcpp ended")
        }
    }
}

/// A detached tmux server of the test's own (`tmux -L NAME`), one window running a
/// command, read back with `capture-pane`.
struct TmuxSession {
    let name: String
    let home: String
    static let executable = URL(fileURLWithPath: "/usr/bin/tmux")

    private var environment: [String: String] { ["HOME": home, "TERM": "xterm-256color"] }

    private func tmux(_ arguments: [String]) throws -> ProcessResult {
        try runProcess(Self.executable, ["-L", name] + arguments, environment: environment, killAfter: 20)
    }

    func start(_ command: String) throws {
        let result = try tmux(["new-session", "-d", "-x", "200", "-y", "50", command])
        guard result.status == 0 else { throw LineSocketClient.Failure(description: "tmux: \(result.stderr)") }
    }

    /// The visible text; with `attributes`, with its colours and bold as escapes.
    func screen(attributes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p"] + (attributes ? ["-e"] : [])).stdout
    }

    func sendKeys(_ keys: String...) throws {
        _ = try tmux(["send-keys"] + keys)
    }

    /// Polls the screen until `predicate` holds (bounded against a hang, not timed).
    func waitForScreen(_ what: String, _ predicate: (String) -> Bool) throws -> String {
        var last = ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            last = try screen()
            if predicate(last) { return last }
            usleep(100_000)
        }
        throw LineSocketClient.Failure(description: "never on screen: \(what); last screen:\n\(last)")
    }

    var isAlive: Bool { (try? tmux(["has-session"]).status) == 0 }

    func end() {
        _ = try? tmux(["kill-server"])
    }
}
