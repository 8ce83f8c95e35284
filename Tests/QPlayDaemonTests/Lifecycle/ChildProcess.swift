import Foundation
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// A real second process for the tests that need one (kill -9, lock contention,
/// signals): this very test binary, filtered to `ChildProcessRoles` and told its role
/// through the environment, so the child runs the same code under test.
final class ChildProcess: @unchecked Sendable {
    static let roleVariable = "QPLAY_TEST_CHILD_ROLE"

    private let process = Process()
    let logPath: FilePath

    /// Starts the role. `environment` is added to this process's environment.
    init(role: String, environment: [String: String], logPath: FilePath) throws {
        self.logPath = logPath
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--testing-library", "swift-testing", "--filter", "ChildProcessRoles"]
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { _, new in new }
        variables[Self.roleVariable] = role
        process.environment = variables
        _ = FileManager.default.createFile(atPath: logPath.string, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath.string))
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// A test that throws half-way must not leave its child running.
    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the exit; the status, or the signal number when a signal ended it.
    func waitForExit() -> (status: Int32, bySignal: Bool) {
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal)
    }

    /// What the child printed, for failure messages.
    var log: String {
        (try? String(contentsOfFile: logPath.string, encoding: .utf8)) ?? "(no log)"
    }

    /// Polls `condition` until it holds. The deadline only turns a hung child into a
    /// failure instead of a hung test run; it is not a timing assertion.
    func waitUntil(
        _ what: String, deadline: Duration = .seconds(120), _ condition: () throws -> Bool
    ) throws {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        while try !condition() {
            guard isRunning else { throw ChildFailure(reason: "child exited while waiting for \(what):\n\(log)") }
            guard clock.now < end else { throw ChildFailure(reason: "gave up waiting for \(what):\n\(log)") }
            usleep(20_000)
        }
    }
}

struct ChildFailure: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}

/// True once a file exists (children create one to say "ready").
func fileExists(_ path: FilePath) -> Bool {
    access(path.string, F_OK) == 0
}
