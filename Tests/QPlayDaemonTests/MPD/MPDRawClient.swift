import Foundation
import QPlayTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A raw MPD client for the end-to-end tests: MPD's framing (answers up to their `OK` or
/// `ACK`, `MPDLines`) on the shared line client, TCP or Unix, greeting read on connect.
final class MPDRawClient {
    private let lines: LineSocketClient
    /// The greeting line the server sent.
    let greeting: String

    /// Connects to 127.0.0.1:`port` and reads the greeting.
    convenience init(port: Int, timeoutSeconds: Int = 10) throws {
        try self.init(try LineSocketClient(host: "127.0.0.1", port: port, timeoutSeconds: timeoutSeconds))
    }

    /// Connects to the Unix socket at `path` and reads the greeting.
    convenience init(path: String, timeoutSeconds: Int = 10) throws {
        try self.init(try LineSocketClient(path: path, timeoutSeconds: timeoutSeconds))
    }

    private init(_ lines: LineSocketClient) throws {
        self.lines = lines
        greeting = try lines.readLine()
    }

    func send(raw bytes: [UInt8]) throws { try lines.send(raw: bytes) }
    func send(_ line: String) throws { try lines.send(line) }
    func readLine() throws -> String { try lines.readLine() }

    /// The lines of one answer, its final `OK` or `ACK …` line included.
    func readAnswer() throws -> [String] { try lines.mpdResponse() }

    /// Sends one command and returns its answer.
    @discardableResult
    func command(_ line: String) throws -> [String] { try lines.mpd(line) }

    /// The `key: value` fields of a command's answer (a key seen twice keeps the first);
    /// fails when the answer is an ACK.
    func fields(_ line: String) throws -> [String: String] {
        try lines.mpdDictionary(line)
    }

    func isClosedByServer(within seconds: Int = 10) -> Bool { lines.isClosedByServer(within: seconds) }
}

/// A started qplayd serving MPD on a free loopback port and a Unix socket, its library
/// indexed (Samples/ by default).
struct MPDDaemon {
    let daemon: DaemonProcess
    let port: Int
    var socketPath: String { daemon.directory.appending("run/mpd.sock").string }

    init(config: String? = nil) throws {
        daemon = DaemonProcess()
        port = try FreeTCPPort.probe()
        var arguments = ["--mpd", "127.0.0.1:\(port)", "--mpd", daemon.directory.appending("run/mpd.sock").string]
        if let config { arguments += ["--config", try daemon.writeConfig(config)] }
        try daemon.start(arguments)
        try daemon.waitForLibrary()
        try waitForScanEnd()
    }

    /// The start-up scan's end is an `update` event for every connection open then: a
    /// client made after it sees only what its test does. (With a password set, `status`
    /// is refused before `password`, and those tests do not wait on idle.)
    private func waitForScanEnd() throws {
        let probe = try client()
        let deadline = ContinuousClock.now + .seconds(20)
        while let status = try? probe.fields("status"), status["updating_db"] != nil, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    func client() throws -> MPDRawClient {
        try MPDRawClient(port: port)
    }

    func stop() {
        daemon.stop()
        daemon.directory.remove()
    }
}

/// `withDaemon` for the MPD frontend: runs `body` with a started `MPDDaemon`, then stops
/// it and removes its folder, also when `body` throws.
func withMPDDaemon(config: String? = nil, _ body: (MPDDaemon) throws -> Void) throws {
    let mpd = try MPDDaemon(config: config)
    defer { mpd.stop() }
    try body(mpd)
}
