import Foundation
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// A private D-Bus session bus: the real `dbus-daemon` listening on a socket in a
/// temporary folder, for tests that drive qplayd through MPRIS with the real
/// `playerctl` and `gdbus`. It can be killed and started again at the same address.
public final class SessionBus: @unchecked Sendable {
    public let directory: TemporaryDirectory
    public let socketPath: String
    private var process: SpawnedProcess?
    /// A bus configuration (XML) used instead of the standard session one, e.g. one
    /// without service folders, so nothing on the machine is started on demand.
    public var configuration: String?

    public init(directory: TemporaryDirectory = TemporaryDirectory("qplay-bus")) {
        self.directory = directory
        socketPath = directory.appending("bus").string
    }

    /// What DBUS_SESSION_BUS_ADDRESS says.
    public var address: String { "unix:path=\(socketPath)" }

    /// The variables a client of this bus needs.
    public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    /// Starts dbus-daemon and waits until it accepts connections.
    public func start() throws {
        unlink(socketPath)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        let daemon = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        let started = try SpawnedProcess(
            daemon, [try configurationArgument(), "--nofork", "--nopidfile", "--address=\(address)"],
            stdout: null, stderr: null)
        process = started
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            guard started.isRunning else { throw LineSocketClient.Failure(description: "dbus-daemon exited: \(started.wait())") }
            if (try? run("gdbus", ["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                                   "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.GetId"]))?.status == 0
            {
                return
            }
            usleep(50_000)
        }
        throw LineSocketClient.Failure(description: "dbus-daemon did not answer within 20 s")
    }

    private func configurationArgument() throws -> String {
        guard let configuration else { return "--session" }
        let file = directory.appending("bus.conf")
        try directory.write(Array(configuration.utf8), to: file)
        return "--config-file=\(file.string)"
    }

    /// SIGKILL: the bus vanishes under its clients.
    public func kill() {
        process?.signal(SIGKILL)
        process?.wait()
        process = nil
    }

    /// Runs a client tool (`playerctl`, `gdbus`, `dbus-send`) on this bus.
    public func run(_ tool: String, _ arguments: [String], timeout: Double = 30) throws -> ProcessResult {
        try runProcess(
            URL(fileURLWithPath: "/usr/bin/\(tool)"), arguments, environment: environment, killAfter: timeout)
    }

    deinit {
        kill()
        directory.remove()
    }
}
