import Foundation
import QPlayTestSupport
import Testing

/// Which server speaks MPD's protocol in a peer test: the real MPD 0.23 (the
/// reference every test is proved against) or qplayd's MPD frontend.
enum MPDPeerKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case mpd
    case qplayd

    var testDescription: String { rawValue }

    /// The servers the peer tests run against.
    static let tested: [MPDPeerKind] = [.mpd, .qplayd]
}

/// One running MPD-protocol server on a loopback port, serving `music`, with the real
/// clients (mpc, python-mpd2) pointed at it.
final class MPDPeer: @unchecked Sendable {
    let kind: MPDPeerKind
    let host = "127.0.0.1"
    let port: Int
    /// The Unix socket the server also listens on, when asked for.
    let socketPath: String?
    private let reference: RealMPDProcess?
    /// qplayd, when that is the server (for checks through qplay's own protocol).
    let daemon: DaemonProcess?

    /// `playlists`: the stored-playlist folder (MPD's `playlist_directory`, qplayd's config key of that name).
    init(_ kind: MPDPeerKind, music: String, unixSocket: Bool = false, playlists: String? = nil) throws {
        self.kind = kind
        switch kind {
        case .mpd:
            let mpd = try RealMPDProcess(music: music, unixSocket: unixSocket, playlistDirectory: playlists)
            try mpd.start()
            reference = mpd
            daemon = nil
            port = mpd.port
            socketPath = mpd.socketPath
        case .qplayd:
            let daemon = DaemonProcess(music: music)
            let port = try FreeTCPPort.probe()
            let socketPath = unixSocket ? daemon.directory.appending("mpd.sock").string : nil
            let config = try playlists.map { ["--config", try daemon.writeConfig("playlist_directory = \"\($0)\"\n")] } ?? []
            try daemon.start(["--mpd", "\(host):\(port)"] + (socketPath.map { ["--mpd", $0] } ?? []) + config)
            self.socketPath = socketPath
            try daemon.waitForLibrary()
            reference = nil
            self.daemon = daemon
            self.port = port
            // The MPD listener may come up after the JSON socket answers.
            let deadline = Date().addingTimeInterval(20)
            while (try? LineSocketClient.mpd(port: port)) == nil {
                guard Date() < deadline, daemon.isRunning else {
                    throw LineSocketClient.Failure(description: "qplayd's MPD port \(port) never greeted:\n\(daemon.log)")
                }
                usleep(50_000)
            }
        }
    }

    /// A new raw connection, greeting read.
    func client() throws -> LineSocketClient {
        try LineSocketClient.mpd(host: host, port: port).client
    }

    /// The server's log, for failure messages.
    var log: String { reference?.log ?? daemon?.log ?? "" }

    /// The real `mpc` against this server.
    func mpc(arguments: [String]) throws -> ProcessResult {
        try runProcess(URL(fileURLWithPath: "/usr/bin/mpc"), ["-h", host, "-p", "\(port)"] + arguments, killAfter: 30)
    }

    /// `mpc ARGS`, which must exit 0: its standard output as lines.
    @discardableResult
    func mpcLines(_ arguments: String...) throws -> [String] {
        try mpcLines(arguments: arguments)
    }

    @discardableResult
    func mpcLines(arguments: [String]) throws -> [String] {
        let result = try mpc(arguments: arguments)
        guard result.status == 0 else {
            throw LineSocketClient.Failure(
                description: "\(kind): mpc \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        }
        return result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// A python-mpd2 script run by the system Python (the one with python3-mpd), with
    /// `HOST` and `PORT` defined; its standard output, which it must end with exit 0.
    func python(_ script: String) throws -> String {
        let prelude = "import sys, json, mpd\nHOST = \"\(host)\"\nPORT = \(port)\n"
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/python3"), ["-c", prelude + script], killAfter: 60)
        guard result.status == 0 else {
            throw LineSocketClient.Failure(
                description: "\(kind): python-mpd2 script exited \(result.status):\n\(result.stderr)\n\(result.stdout)")
        }
        return result.stdout
    }

    func stop() {
        reference?.stop()
        daemon?.stop()
    }
}

/// `withDaemon` for a peer: runs `body` with a started MPD or qplayd, then stops it, also
/// when `body` throws.
func withPeer(
    _ kind: MPDPeerKind, music: String, unixSocket: Bool = false, playlists: String? = nil, _ body: (MPDPeer) throws -> Void
) throws {
    let peer = try MPDPeer(kind, music: music, unixSocket: unixSocket, playlists: playlists)
    defer { peer.stop() }
    try body(peer)
}

/// The peer tests' music folder: the MP3 and FLAC Samples (tagged, untagged, accents,
/// Cyrillic and Japanese names, a compilation disc, a 24-bit FLAC) copied into a fresh
/// folder, so both servers index the very same files.
func peerLibrary() throws -> TemporaryDirectory {
    let library = TemporaryDirectory("mpd-library")
    let source = SampleCatalog.directory.string
    let files = try FileManager.default.subpathsOfDirectory(atPath: source)
        .filter { $0.hasSuffix(".mp3") || $0.hasSuffix(".flac") }
    // Two long tracks, so a test can play, pause and skip without a track ending
    // under it on a busy machine (the Samples last 3–4 s).
    for (number, title) in [(1, "First Long"), (2, "Second Long")] {
        let folder = library.appending("Peer Tones/Long Player")
        try FileManager.default.createDirectory(atPath: folder.string, withIntermediateDirectories: true)
        let wav = library.appending("long-\(number).wav").string
        try GeneratedAudio.run(
            "sox", "-R", "-n", "-r", "22050", "-c", "1", "-b", "16", wav,
            "synth", "40", "sine", "\(300 * number)", "vol", "0.3")
        try GeneratedAudio.run(
            "lame", "--quiet", "-b", "32", "--tt", title, "--ta", "Peer Tones", "--tl", "Long Player",
            "--tn", "\(number)/2", "--ty", "2021", "--tg", "Ambient", wav,
            folder.appending("0\(number) \(title).mp3").string)
        try FileManager.default.removeItem(atPath: wav)
    }
    for file in files {
        let target = library.appending(file)
        try FileManager.default.createDirectory(
            atPath: target.removingLastComponent().string, withIntermediateDirectories: true)
        try library.copy(SampleCatalog.directory.appending(file), to: target)
    }
    // Fixed times, the folders newer than their files (as after a file was removed), so
    // every run sees the same Last-Modified lines and the same folder-time difference.
    let manager = FileManager.default
    let entries = try manager.subpathsOfDirectory(atPath: library.path.string).map { library.appending($0).string }
    for (path, isFolder) in entries.map({ ($0, (try? manager.destinationOfSymbolicLink(atPath: $0)) == nil && isDirectory($0)) })
        .sorted(by: { !$0.1 && $1.1 })
    {
        let date = Date(timeIntervalSince1970: isFolder ? 1_717_200_000 : 1_704_067_200)
        try manager.setAttributes([.modificationDate: date], ofItemAtPath: path)
    }
    try manager.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_717_200_000)], ofItemAtPath: library.path.string)
    return library
}

private func isDirectory(_ path: String) -> Bool {
    var folder: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
}
