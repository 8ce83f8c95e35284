import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real Icecast server (Debian's `icecast2`) on a private configuration: its own
/// loopback port, passwords and log folder in a temporary directory, and a web root of
/// the test's own files (pages, playlists) served as they are. Sources are ffmpeg
/// processes playing tones into mounts. No system service: the server runs as the
/// test's user, or — Icecast refuses to run as root — drops to `nobody` when that is
/// root.
public final class IcecastServer: @unchecked Sendable {
    public static let executable = URL(fileURLWithPath: "/usr/bin/icecast2")
    public static let ffmpeg = URL(fileURLWithPath: "/usr/bin/ffmpeg")
    public static let curl = URL(fileURLWithPath: "/usr/bin/curl")
    public static var isInstalled: Bool {
        [executable, ffmpeg, curl].allSatisfy { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    public let directory: TemporaryDirectory
    public let port: Int
    public let sourcePassword = "qplay-source"
    public let adminPassword = "qplay-admin"
    /// Served at `/NAME` for a file `NAME` written here (before or after the start).
    public let webRoot: String
    private var server: SpawnedProcess?
    private var sources: [String: SpawnedProcess] = [:]
    /// The tones started and not stopped, started again with a server started again.
    private var tones: [Tone] = []
    private let lock = NSLock()

    public init() throws {
        directory = TemporaryDirectory("icecast")
        port = try FreeTCPPort.probe()
        webRoot = directory.appending("web").string
        // Icecast reads and logs as `nobody` when started by root.
        chmod(directory.path.string, 0o755)
        for (folder, mode) in [("web", 0o755), ("log", 0o777)] {
            let path = directory.appending(folder).string
            mkdir(path, mode_t(mode))
            chmod(path, mode_t(mode))
        }
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT/PATH`
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// A file of the web root, readable by the server.
    public func serve(_ name: String, _ contents: String) throws {
        let path = "\(webRoot)/\(name)"
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o644)
    }

    public var log: String {
        let files = ["icecast.out", "log/error.log"].map { directory.appending($0).string }
        return files.map { (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "" }.joined(separator: "\n")
    }

    /// Starts the server and waits until it answers.
    public func start() throws {
        let changeOwner = getuid() == 0 ? "<changeowner><user>nobody</user><group>nogroup</group></changeowner>" : ""
        let config = """
            <icecast>
              <location>loopback</location><admin>qplay@localhost</admin>
              <limits><clients>32</clients><sources>8</sources><queue-size>524288</queue-size>
                <header-timeout>5</header-timeout><source-timeout>10</source-timeout><burst-size>65535</burst-size></limits>
              <authentication><source-password>\(sourcePassword)</source-password>
                <admin-user>admin</admin-user><admin-password>\(adminPassword)</admin-password></authentication>
              <hostname>127.0.0.1</hostname>
              <listen-socket><port>\(port)</port><bind-address>127.0.0.1</bind-address></listen-socket>
              <fileserve>1</fileserve>
              <paths><basedir>/usr/share/icecast2</basedir><logdir>\(directory.appending("log").string)</logdir>
                <webroot>\(webRoot)</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
              <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>3</loglevel></logging>
              <security><chroot>0</chroot>\(changeOwner)</security>
            </icecast>
            """
        try directory.write(Array(config.utf8), to: directory.appending("icecast.xml"))
        try launch()
    }

    /// Icecast 2.4.4 itself now and then dies of a segmentation fault (a NULL `strlen` in
    /// one of its threads, in the kernel log) within moments of starting, under the load
    /// of a whole test run; alone it did not in hundreds of starts. What the tests check
    /// is qplay against a working server, so a server that crashes before the test's own
    /// steps begin is started again (as are the tones it had), at most twice; any other
    /// end of it is a failure.
    private func launch() throws {
        var crashes = 0
        while true {
            do {
                try spawnServer()
                for tone in lock.withLock({ tones }) { try spawnTone(tone) }
                return
            } catch let failure as ServerEnded where failure.crashed && crashes < 2 {
                crashes += 1
                FileHandle.standardError.write(Data("\(failure.description)\nstarting icecast2 again\n".utf8))
                stopProcesses()
            }
        }
    }

    private func spawnServer() throws {
        let output = open(directory.appending("icecast.out").string, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        defer { close(output) }
        let process = try SpawnedProcess(
            Self.executable, ["-c", directory.appending("icecast.xml").string], stdout: output, stderr: output)
        lock.withLock { server = process }
        try waitUntil("Icecast answers") { try self.get("/admin/listmounts").status == 0 }
    }

    public enum Codec: String, Sendable {
        case mp3, vorbis, opus, aac, oggFLAC

        var ffmpegArguments: [String] {
            switch self {
            case .mp3: ["-c:a", "libmp3lame", "-b:a", "128k", "-content_type", "audio/mpeg", "-f", "mp3"]
            case .vorbis: ["-c:a", "libvorbis", "-b:a", "96k", "-content_type", "application/ogg", "-f", "ogg"]
            // Opus is 48 kHz only; ffmpeg resamples the tone to it.
            case .opus: ["-c:a", "libopus", "-b:a", "96k", "-content_type", "audio/ogg", "-f", "ogg"]
            case .aac: ["-c:a", "aac", "-b:a", "96k", "-content_type", "audio/aac", "-f", "adts"]
            case .oggFLAC: ["-c:a", "flac", "-content_type", "application/ogg", "-f", "ogg"]
            }
        }
    }

    private struct Tone {
        var mount: String
        var frequency: Int
        var codec: Codec
        var station: String?
    }

    /// An ffmpeg source playing a sine tone of `frequency` Hz into `mount` in real time,
    /// until stopped; returns once the server lists the mount. `station`: the stream's
    /// name (the source's `Ice-Name`, which listeners get as `icy-name`).
    public func startTone(mount: String, frequency: Int = 440, codec: Codec = .mp3, station: String? = nil) throws {
        let tone = Tone(mount: mount, frequency: frequency, codec: codec, station: station)
        lock.withLock { tones.append(tone) }
        do {
            try spawnTone(tone)
        } catch let failure as ServerEnded where failure.crashed {
            FileHandle.standardError.write(Data("\(failure.description)\nstarting icecast2 again\n".utf8))
            stopProcesses()
            try launch()
        }
    }

    private func spawnTone(_ tone: Tone) throws {
        let mount = tone.mount
        let log = open(directory.appending("ffmpeg\(mount.replacingOccurrences(of: "/", with: "-")).log").string,
            O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        defer { close(log) }
        let arguments = ["-nostdin", "-loglevel", "error", "-re", "-f", "lavfi",
            "-i", "sine=frequency=\(tone.frequency):sample_rate=44100"] + tone.codec.ffmpegArguments
            + (tone.station.map { ["-ice_name", $0] } ?? [])
            + ["icecast://source:\(sourcePassword)@127.0.0.1:\(port)\(mount)"]
        let source = try SpawnedProcess(Self.ffmpeg, arguments, stdout: log, stderr: log)
        lock.withLock { sources[mount] = source }
        try waitUntil("the mount \(mount) is listed") {
            try self.get("/admin/listmounts").stdout.contains("mount=\"\(mount)\"")
        }
    }

    /// Sets the mount's ICY title the way a source client does, through the admin URL.
    public func setTitle(_ title: String, mount: String) throws {
        let song = title.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? title
        let result = try get("/admin/metadata?mount=\(mount)&mode=updinfo&charset=UTF-8&song=\(song)")
        guard result.stdout.contains("Metadata update successful") else {
            throw LineSocketClient.Failure(description: "metadata update failed: \(result.stdout) \(result.stderr)")
        }
    }

    public func stopSource(mount: String) {
        guard let source = lock.withLock({ () -> SpawnedProcess? in
            tones.removeAll { $0.mount == mount }
            return sources.removeValue(forKey: mount)
        }) else { return }
        source.signal(SIGTERM)
        source.wait()
    }

    /// SIGSTOP: the server keeps its connections open and sends nothing (a stall).
    public func suspend() { lock.withLock { server }?.signal(SIGSTOP) }
    public func resume() { lock.withLock { server }?.signal(SIGCONT) }

    public func stop() {
        lock.withLock { tones = [] }
        stopProcesses()
    }

    private func stopProcesses() {
        let (process, running) = lock.withLock { () -> (SpawnedProcess?, [SpawnedProcess]) in
            defer {
                server = nil
                sources = [:]
            }
            return (server, Array(sources.values))
        }
        for source in running {
            source.signal(SIGTERM)
            source.wait()
        }
        if let process {
            process.signal(SIGCONT)
            process.signal(SIGTERM)
            process.wait()
        }
    }

    /// A GET with the admin's credentials (curl): exit status 0 when the server answered.
    public func get(_ path: String) throws -> ProcessResult {
        try runProcess(Self.curl, ["-s", "-f", "--max-time", "5", "-u", "admin:\(adminPassword)", url(path)],
            killAfter: 15)
    }

    private func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(30)
        while true {
            guard let process = lock.withLock({ server }) else {
                throw LineSocketClient.Failure(description: "\(what): the server was stopped")
            }
            guard process.isRunning else { throw ServerEnded(status: process.wait(), log: log) }
            if (try? condition()) == true { return }
            guard Date() < deadline else {
                throw LineSocketClient.Failure(description: "\(what): not within 30 s\n\(log)")
            }
            usleep(100_000)
        }
    }
}

/// The Icecast process ended while a test waited for it.
struct ServerEnded: Error, CustomStringConvertible {
    /// Its exit status, or 128 + the signal that ended it.
    var status: Int32
    var log: String

    /// Ended by SIGSEGV, SIGBUS or SIGABRT: a crash of its own, not a refusal to start.
    var crashed: Bool { [SIGSEGV, SIGBUS, SIGABRT].map { 128 + $0 }.contains(status) }

    var description: String { "icecast2 exited (status \(status)):\n\(log)" }
}
