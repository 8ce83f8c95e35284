import Foundation
import SystemPackage

extension DaemonProcess {
    /// A started daemon on `music`: `config` written to its folder and passed with
    /// `--config`, `arguments` after it; by default once its start-up scan has indexed
    /// `music` (`update` with `wait`, which would start a scan where `scan_on_start` is off).
    public static func started(
        music: String = SampleCatalog.directory.string, config: String? = nil, arguments: [String] = [],
        environment: [String: String] = [:], sessionBus: String? = nil, waitForLibrary: Bool = true
    ) throws -> DaemonProcess {
        let daemon = DaemonProcess(music: music)
        daemon.daemonEnvironment = environment
        daemon.sessionBusAddress = sessionBus
        var startArguments: [String] = []
        if let config { startArguments += ["--config", try daemon.writeConfig(config)] }
        try daemon.start(startArguments + arguments)
        if waitForLibrary { try daemon.waitForLibrary() }
        return daemon
    }
}

/// Runs `body` with a started daemon (`DaemonProcess.started`), then stops it (SIGTERM,
/// whatever `body` did to it) and removes its folder, also when `body` throws.
/// `start: false` hands `body` the daemon unstarted, for a test that prepares its data
/// folder or launches it in its own way first.
@discardableResult
public func withDaemon<Result>(
    music: String = SampleCatalog.directory.string, config: String? = nil, arguments: [String] = [],
    environment: [String: String] = [:], sessionBus: String? = nil, waitForLibrary: Bool = true, start: Bool = true,
    _ body: (DaemonProcess) throws -> Result
) throws -> Result {
    let daemon = start
        ? try DaemonProcess.started(
            music: music, config: config, arguments: arguments, environment: environment, sessionBus: sessionBus,
            waitForLibrary: waitForLibrary)
        : DaemonProcess(music: music)
    defer {
        daemon.stop()
        daemon.directory.remove()
    }
    return try body(daemon)
}
