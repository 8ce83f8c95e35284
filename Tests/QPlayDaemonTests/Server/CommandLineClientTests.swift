import Foundation
import QPlayDaemon
import QPlayProtocol
import QPlayTestSupport
import Testing

/// Runs the built `qplay` binary against an in-process server with the test handler:
/// the transport, argument mapping and exit codes, not the player.
@Suite("qplay binary against the socket server", .timeLimit(.minutes(1)), .tags(.pooled), .group(.pooled))
struct CommandLineClientTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var binary: URL? {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = runner.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("qplay")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }

    func run(_ arguments: [String], socket: String) async throws -> Run {
        guard let binary = Self.binary else { throw CocoaError(.fileNoSuchFile) }
        return try await onThread {
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["QPLAY_SOCKET"] = socket
            process.environment = environment
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            let stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Run(
                status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                stderr: String(decoding: stderr, as: UTF8.self))
        }
    }

    @Test func noDaemonExits3AndSaysWhereItLooked() async throws {
        let directory = TemporaryDirectory("qplay-cli")
        defer { directory.remove() }
        let socket = directory.path.string + "/none.sock"
        let result = try await run(["status"], socket: socket)
        #expect(result.status == 3)
        #expect(result.stderr.contains(socket))
        #expect(result.stderr.contains("qplayd"))
    }

    @Test func usageErrorsExit2() async throws {
        let result = try await run(["seek", "soon"], socket: "/nonexistent/qplay.sock")
        #expect(result.status == 2)
        let unknown = try await run(["dance"], socket: "/nonexistent/qplay.sock")
        #expect(unknown.status == 2)
    }

    @Test func printsResultsAndStatusFormats() async throws {
        let fixture = try await ServerFixture.start()
        let socket = fixture.socketPath
        let ping = try await run(["ping"], socket: socket)
        #expect(ping.status == 0)
        #expect(ping.stdout.contains("9.8.7"))
        let json = try await run(["status", "--json"], socket: socket)
        #expect(json.status == 0)
        #expect(try WireCoding.decode(Status.self, from: Array(json.stdout.utf8)) == TestHandler.status)
        let format = try await run(["status", "--format", "{artist} – {title} {position}/{duration}"], socket: socket)
        #expect(format.stdout == "Sine – Tone 0:01/0:03\n")
        // Negative seeks are not options; the test handler refuses seeks: exit 1.
        let seek = try await run(["seek", "-10", "--socket", socket], socket: "/nonexistent")
        #expect(seek.status == 1)
        #expect(seek.stderr.contains("not in this test"))
        let refused = try await run(["add", "--id", "3"], socket: socket)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("no track has these ids"))
        await fixture.stop()
    }
}
