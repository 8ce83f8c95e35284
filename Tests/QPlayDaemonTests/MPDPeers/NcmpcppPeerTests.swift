import Foundation
import QPlayTestSupport
import Testing

/// ncmpcpp (0.9.2), a full-screen client, in a detached tmux of its own (`-L`, so no
/// other tmux server is touched) against the real MPD and qplayd's MPD frontend: it
/// connects, its playlist view shows the playing track, and its `p` key pauses; the queue
/// saved from it and stored playlists changed in its playlist editor show on its screen
/// and in `mpc`'s listings.
@Suite(.serialized, .tags(.peer), .group(.peer))
struct NcmpcppPeerTests {
    @Test(arguments: MPDPeerKind.tested)
    func showsPlayingTrackAndPauses(_ kind: MPDPeerKind) throws {
        try Self.withNcmpcpp(kind) { peer in
            try peer.mpcLines("add", "Peer Tones/Long Player/01 First Long.mp3", "Test Tones/Day Cycle/01 Morning.mp3")
            try peer.mpcLines("play")
        } then: { peer, tmux in

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
        }
    }
}

extension NcmpcppPeerTests {
    /// The queue saved from the playlist view (`S`, a name, Enter), listed with its tracks
    /// in the playlist editor (`5`); saved again under the same name, ncmpcpp reads
    /// "already exists" from the ACK's code, asks, and overwrites.
    @Test(arguments: MPDPeerKind.tested)
    func savesQueueAndListsItInPlaylistEditor(_ kind: MPDPeerKind) throws {
        let files = ["Peer Tones/Long Player/01 First Long.mp3", "Test Tones/Day Cycle/01 Morning.mp3"]
        let name = "Café mix"
        try Self.withNcmpcpp(kind) { peer in
            try peer.mpcLines(arguments: ["add"] + files)
        } then: { peer, tmux in
            _ = try tmux.waitForScreen("the queue of two") { $0.contains("Playlist (2 items") && $0.contains("Morning") }

            try Self.saveQueue(in: tmux, as: name)
            _ = try tmux.waitForScreen("the saved message") { $0.contains("Playlist saved as \"\(name)\"") }
            #expect(try peer.mpcLines("lsplaylists") == [name], "\(kind)")
            #expect(try peer.mpcLines("-f", "%file%", "playlist", name) == files, "\(kind)")

            try tmux.sendKeys("5")
            // The content column's heading can show before its rows: the wait is for the rows.
            _ = try tmux.waitForScreen("the playlist editor with the saved playlist and its two tracks") { screen in
                let rows = screen.split(separator: "\n")
                return screen.contains("Playlist editor") && screen.contains("Content (2 items)")
                    && rows.contains { $0.hasPrefix(name + " ") && $0.contains("│Peer Tones - First Long") }
                    && rows.contains { $0.contains("│Test Tones - Morning") }
            }

            // Saved again, over a longer queue: ncmpcpp asks only on MPD's "exists" code (56).
            try peer.mpcLines("add", "Test Tones/Day Cycle/02 Evening.mp3")
            try tmux.sendKeys("1")
            _ = try tmux.waitForScreen("the queue of three") { $0.contains("Playlist (3 items") }
            try Self.saveQueue(in: tmux, as: name)
            _ = try tmux.waitForScreen("the overwrite question") { $0.contains("Playlist \"\(name)\" already exists, overwrite?") }
            try tmux.sendKeys("y")
            _ = try tmux.waitForScreen("the overwritten message") { $0.contains("Playlist overwritten") }
            #expect(
                try peer.mpcLines("-f", "%file%", "playlist", name) == files + ["Test Tones/Day Cycle/02 Evening.mp3"], "\(kind)")
            try tmux.sendKeys("5")
            _ = try tmux.waitForScreen("the editor with three tracks, Evening the new one") {
                $0.contains("Playlist editor") && $0.contains("Content (3 items)") && $0.contains("│Test Tones - Evening")
            }
        }
    }
}

extension NcmpcppPeerTests {
    /// A stored playlist changed in the playlist editor: renamed (`e`, the name edited),
    /// a track deleted from it and another moved up (`Right` to its tracks, `Delete`,
    /// `m`), then the playlist deleted (`Left`, `Delete`, `y`); each change on the screen
    /// and in `mpc`'s listing.
    @Test(arguments: MPDPeerKind.tested)
    func editsStoredPlaylistInPlaylistEditor(_ kind: MPDPeerKind) throws {
        let files = [
            "Peer Tones/Long Player/01 First Long.mp3", "Test Tones/Day Cycle/01 Morning.mp3", "Test Tones/Day Cycle/02 Evening.mp3",
        ]
        try Self.withNcmpcpp(kind) { peer in
            try peer.mpcLines(arguments: ["add"] + files)
            try peer.mpcLines("save", "Café mix")
            try peer.mpcLines("clear")
        } then: { peer, tmux in
            _ = try tmux.waitForScreen("the empty queue") { $0.contains("Playlist (0 items") }
            try tmux.sendKeys("5")
            _ = try tmux.waitForScreen("the editor with the playlist") { $0.contains("Content (3 items)") && $0.contains("Café mix ") }

            // The prompt starts with the old name: three letters off, four on.
            try tmux.sendKeys("e")
            _ = try tmux.waitForScreen("the rename prompt") { $0.contains("Playlist: Café mix") }
            try tmux.sendKeys("BSpace", "BSpace", "BSpace")
            try tmux.sendKeys("-l", "tape")
            try tmux.sendKeys("Enter")
            // The list is read again when the server tells of the change (idle stored_playlist).
            _ = try tmux.waitForScreen("the renamed playlist listed") {
                $0.contains("Playlist renamed to \"Café tape\"") && $0.split(separator: "\n").contains { $0.hasPrefix("Café tape ") }
            }
            #expect(try peer.mpcLines("lsplaylists") == ["Café tape"], "\(kind)")

            try tmux.sendKeys("Right")
            try tmux.sendKeys("Down")
            try tmux.sendKeys("Delete")
            // ncmpcpp writes the new count before it redraws the rows: waited for whole.
            let deleted = try tmux.waitForScreen("two tracks left") {
                $0.contains("Content (2 items)") && $0.contains("Item(s) deleted") && !$0.contains("Morning")
            }
            #expect(deleted.contains("Evening"), "\(kind):\n\(deleted)")
            #expect(try peer.mpcLines("-f", "%file%", "playlist", "Café tape") == [files[0], files[2]], "\(kind)")

            // The cursor stays on the second row, now Evening: `m` moves it above First Long.
            try tmux.sendKeys("m")
            _ = try tmux.waitForScreen("Evening above First Long") { screen in
                let rows = screen.split(separator: "\n")
                guard let evening = rows.firstIndex(where: { $0.contains("│Test Tones - Evening") }),
                    let first = rows.firstIndex(where: { $0.contains("│Peer Tones - First Long") })
                else { return false }
                return evening < first
            }
            try waitUntil("\(kind) moving Evening up") {
                try peer.mpcLines("-f", "%file%", "playlist", "Café tape") == [files[2], files[0]]
            }

            try tmux.sendKeys("Left")
            try tmux.sendKeys("Delete")
            _ = try tmux.waitForScreen("the delete question") { $0.contains("Delete playlist \"Café tape\"? [y/n]") }
            try tmux.sendKeys("y")
            _ = try tmux.waitForScreen("the playlist gone from the list") {
                $0.contains("Playlist deleted") && !$0.split(separator: "\n").contains { $0.hasPrefix("Café") }
            }
            #expect(try peer.mpcLines("lsplaylists") == [], "\(kind)")
        }
    }
}

extension NcmpcppPeerTests {
    /// ncmpcpp against `kind` serving the peer library and a stored-playlist folder of its
    /// own, started in a tmux of its own once `prepare` has set the server up; `then`
    /// must leave it running. ncmpcpp writes its settings and lyrics folders under HOME:
    /// a private one, which `TmuxSession.end()` removes.
    static func withNcmpcpp(
        _ kind: MPDPeerKind, sourceLocation: SourceLocation = #_sourceLocation, _ prepare: (MPDPeer) throws -> Void,
        then body: (MPDPeer, TmuxSession) throws -> Void
    ) throws {
        let library = try peerLibrary()
        defer { library.remove() }
        let playlists = TemporaryDirectory("playlists")
        defer { playlists.remove() }
        try withPeer(kind, music: library.path.string, playlists: playlists.path.string) { peer in
            try prepare(peer)
            let tmux = TmuxSession(name: "qplay-ncmpcpp-\(getpid())", home: TemporaryDirectory("ncmpcpp-home"))
            defer { tmux.end() }
            try tmux.start("ncmpcpp -h \(peer.host) -p \(peer.port)")
            try body(peer, tmux)
            #expect(tmux.isAlive, "\(kind): ncmpcpp ended", sourceLocation: sourceLocation)
        }
    }

    /// The queue saved from the playlist view: `S`, the name at the prompt, Enter.
    static func saveQueue(in tmux: TmuxSession, as name: String) throws {
        try tmux.sendKeys("S")
        _ = try tmux.waitForScreen("the save prompt") { $0.contains("Save playlist as:") }
        try tmux.sendKeys("-l", name)
        try tmux.sendKeys("Enter")
    }
}

/// A detached tmux server of the test's own (`tmux -L NAME`), one window running a
/// command, read back with `capture-pane`; its HOME is a folder of its own.
struct TmuxSession {
    let name: String
    let home: TemporaryDirectory
    static let executable = URL(fileURLWithPath: "/usr/bin/tmux")

    private var environment: [String: String] { ["HOME": home.path.string, "TERM": "xterm-256color"] }

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

    /// Ends the server and removes its HOME.
    func end() {
        _ = try? tmux(["kill-server"])
        home.remove()
    }
}
