import Foundation
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// A real `qplayd` process on a private socket, data directory and music folder, playing
/// into a `file:` output whose bytes the test reads back.
public final class DaemonProcess: @unchecked Sendable {
    public let directory: TemporaryDirectory
    public let socketPath: String
    public let dataDirectory: String
    public let musicDirectory: String
    public let capturePath: String
    public let logPath: String
    private var process: SpawnedProcess?
    /// More variables for the daemon (not for `qplay`), e.g. `QPLAYD_CLOCK_OFFSET`.
    public var daemonEnvironment: [String: String] = [:]
    /// The D-Bus session bus qplayd serves MPRIS on; none by default, so a test run from
    /// a desktop session does not register its daemons on the desktop's bus.
    public var sessionBusAddress: String?

    /// `music`: the folder to serve (Samples/ by default). `extraArguments` go to qplayd.
    public init(music: String = SampleCatalog.directory.string, directory: TemporaryDirectory = TemporaryDirectory("qplayd")) {
        self.directory = directory
        socketPath = directory.appending("run/qplay.sock").string
        dataDirectory = directory.appending("data").string
        musicDirectory = music
        capturePath = directory.appending("captured.raw").string
        logPath = directory.appending("qplayd.log").string
    }

    public var environment: [String: String] {
        [
            "XDG_RUNTIME_DIR": directory.appending("xdg-run").string,
            "XDG_DATA_HOME": directory.appending("xdg-data").string,
            "XDG_CONFIG_HOME": directory.appending("xdg-config").string,
            "XDG_CACHE_HOME": directory.appending("xdg-cache").string,
            "QPLAY_SOCKET": socketPath,
            "DBUS_SESSION_BUS_ADDRESS": sessionBusAddress ?? "",
        ]
    }

    public var standardArguments: [String] {
        ["--music", musicDirectory, "--socket", socketPath, "--data-dir", dataDirectory,
         "--output", "file:\(capturePath)"]
    }

    /// Starts qplayd and waits until it answers on its socket. Its output is appended
    /// to `logPath` (every start of the same daemon, for the failure messages).
    /// `launcher`: a program and its arguments that run qplayd (its path and arguments
    /// follow them) by `exec`, so that `pid` is still the daemon's, as `unshare` does.
    public func start(_ extraArguments: [String] = [], launcher: [String] = []) throws {
        let log = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard log >= 0 else { throw LineSocketClient.Failure(description: "cannot open \(logPath)") }
        defer { close(log) }
        let daemon = BuiltProducts.url("qplayd")
        // `--output` is repeatable (each after the first is another output): a test's
        // own outputs replace the capture instead of following it.
        let arguments =
            (extraArguments.contains("--output") ? Array(standardArguments.dropLast(2)) : standardArguments)
            + extraArguments
        let process = try SpawnedProcess(
            launcher.first.map { URL(fileURLWithPath: $0) } ?? daemon,
            launcher.isEmpty ? arguments : Array(launcher.dropFirst()) + [daemon.path] + arguments,
            environment: environment.merging(daemonEnvironment) { _, extra in extra }, stdout: log, stderr: log)
        self.process = process
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if !process.isRunning {
                throw LineSocketClient.Failure(description: "qplayd exited with \(process.wait()):\n\(self.log)")
            }
            if let client = try? LineSocketClient(path: socketPath, timeoutSeconds: 2),
                (try? client.readLine()) != nil
            {
                return
            }
            usleep(50_000)
        }
        throw LineSocketClient.Failure(description: "qplayd did not answer within 30 s:\n\(self.log)")
    }

    public var log: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    public var isRunning: Bool { process?.isRunning ?? false }

    public var pid: Int32 { process?.pid ?? 0 }

    /// A new raw client, greeting already read.
    public func client() throws -> LineSocketClient {
        let client = try LineSocketClient(path: socketPath)
        _ = try client.readLine()
        return client
    }

    /// Runs the real `qplay` against this daemon.
    @discardableResult
    public func qplay(_ arguments: String...) throws -> ProcessResult {
        try runProcess(BuiltProducts.url("qplay"), arguments, environment: environment)
    }

    public func qplay(arguments: [String]) throws -> ProcessResult {
        try runProcess(BuiltProducts.url("qplay"), arguments, environment: environment)
    }

    /// Writes a config file into the test's folder; pass `["--config", path]` to `start`.
    public func writeConfig(_ text: String) throws -> String {
        let path = directory.appending("config.toml")
        try directory.write(Array(text.utf8), to: path)
        return path.string
    }

    /// Waits until the start-up scan has indexed the music folder: an `update --wait`
    /// runs after the scan under way, so its answer comes when both are done.
    public func waitForLibrary() throws {
        let client = try self.client()
        let response = try client.request("update", ["wait": true])
        guard response["ok"] as? Bool == true else {
            throw LineSocketClient.Failure(description: "update failed: \(response)")
        }
    }

    /// SIGTERM, then waits for exit; returns the exit status (128 + N: signal N).
    @discardableResult
    public func stop() -> Int32 {
        guard let process else { return 0 }
        process.signal(SIGTERM)
        return process.wait()
    }

    /// SIGTERM, then its exit status once it has exited, or nil if it still runs after
    /// `limit` seconds (a bound against hanging; the deinit kills it).
    public func stop(within limit: Double) -> Int32? {
        guard let process else { return 0 }
        process.signal(SIGTERM)
        let deadline = Date().addingTimeInterval(limit)
        while process.isRunning {
            guard Date() < deadline else { return nil }
            usleep(20_000)
        }
        return process.wait()
    }

    /// SIGKILL: a crash, as far as the daemon can tell.
    public func kill9() {
        guard let process else { return }
        process.signal(SIGKILL)
        process.wait()
    }

    /// The captured output so far, as interleaved S16LE stereo at 44.1 kHz.
    /// Empty until the output first opens the device (ALSA's file PCM makes the capture
    /// file then, which on a loaded machine can be after a test's first look).
    public func capturedSamples() throws -> [Int16] {
        guard FileManager.default.fileExists(atPath: capturePath) else { return [] }
        let bytes = try TemporaryDirectory.read(.init(capturePath))
        return stride(from: 0, to: bytes.count - 1, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
    }

    deinit {
        kill9()
    }
}
