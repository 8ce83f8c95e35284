import Foundation
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// The real Music Player Daemon (the Debian package's `/usr/bin/mpd`) on a private
/// configuration: its own loopback port, database, state and sticker files, a `null`
/// output with a software mixer (so volume works without a sound card), and the given
/// music folder. The reference the MPD frontend's tests are proved against.
public final class RealMPDProcess: @unchecked Sendable {
    public static let executable = URL(fileURLWithPath: "/usr/bin/mpd")
    public let directory: TemporaryDirectory
    public let musicDirectory: String
    public let port: Int
    public let logPath: String
    /// A Unix socket MPD listens on besides its TCP port, when asked for.
    public let socketPath: String?
    /// MPD's `playlist_directory`, when it has one (without, its stored-playlist commands are disabled).
    public let playlistDirectory: String?
    private var process: SpawnedProcess?

    public init(
        music: String, unixSocket: Bool = false, playlistDirectory: String? = nil,
        directory: TemporaryDirectory = TemporaryDirectory("mpd")
    ) throws {
        self.directory = directory
        self.playlistDirectory = playlistDirectory
        musicDirectory = music
        port = try FreeTCPPort.probe()
        logPath = directory.appending("mpd.log").string
        socketPath = unixSocket ? directory.appending("mpd.sock").string : nil
    }

    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable.path) }

    /// Starts MPD, waits until it listens and greets, then indexes the music folder and waits for
    /// the end of that update.
    public func start() throws {
        let config = directory.appending("mpd.conf")
        let text = """
            music_directory "\(musicDirectory)"
            db_file "\(directory.appending("database").string)"
            state_file "\(directory.appending("state").string)"
            sticker_file "\(directory.appending("sticker.sql").string)"
            log_file "\(logPath)"
            bind_to_address "127.0.0.1"
            \(socketPath.map { "bind_to_address \"\($0)\"" } ?? "")
            \(playlistDirectory.map { "playlist_directory \"\($0)\"" } ?? "")
            port "\(port)"
            auto_update "no"
            zeroconf_enabled "no"
            audio_output {
                type "null"
                name "null"
                mixer_type "software"
            }

            """
        try directory.write(Array(text.utf8), to: config)
        let output = open(directory.appending("mpd.out").string, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        defer { close(output) }
        let process = try SpawnedProcess(
            Self.executable, ["--no-daemon", config.string], stdout: output, stderr: output)
        self.process = process
        let deadline = Date().addingTimeInterval(30)
        var connection: LineSocketClient?
        while connection == nil {
            guard process.isRunning else {
                throw LineSocketClient.Failure(description: "mpd exited with \(process.wait()):\n\(log)")
            }
            guard Date() < deadline else { throw LineSocketClient.Failure(description: "mpd did not greet within 30 s:\n\(log)") }
            // Only our MPD's listener: another server on this port is another test's.
            if FreeTCPPort.isHeld(port, byProcess: process.pid) {
                connection = try? LineSocketClient.mpd(port: port).client
            }
            if connection == nil { usleep(50_000) }
        }
        try Self.updateAndWait(connection!)
    }

    /// `update`, then `idle update` until `status` no longer shows `updating_db` (the
    /// first `update` event may be the start of the job, not its end).
    public static func updateAndWait(_ client: LineSocketClient) throws {
        let answer = try client.mpd("update")
        guard answer.last == "OK" else {
            throw LineSocketClient.Failure(description: "update: \(answer.joined(separator: "\n"))")
        }
        while try client.mpdStatus()["updating_db"] != nil {
            _ = try client.mpd("idle update")
        }
    }

    public var log: String {
        let files = [logPath, directory.appending("mpd.out").string]
        return files.compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }.joined(separator: "\n")
    }

    public var isRunning: Bool { process?.isRunning ?? false }

    @discardableResult
    public func stop() -> Int32 {
        guard let process else { return 0 }
        process.signal(SIGTERM)
        return process.wait()
    }

    deinit {
        stop()
        directory.remove()
    }
}
