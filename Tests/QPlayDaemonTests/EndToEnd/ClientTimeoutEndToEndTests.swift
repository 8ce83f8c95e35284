import Foundation
import QPlayProtocol
import QPlayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The real `qplay` against listeners that misbehave: it must end with the documented
/// exit status and message instead of hanging or holding a huge line. `--timeout 1`
/// keeps each run short; `killAfter` only bounds a qplay that would hang.
@Suite("End to end: qplay against a daemon that does not answer", .timeLimit(.minutes(2)))
struct ClientTimeoutEndToEndTests {
    static let refusal = Array(
        #"{"id":null,"ok":false,"error":{"code":"unavailable","message":"too many connections (max_connections = 512); try again later"}}"#
            .utf8) + [10]

    /// A listener in a fresh directory running `script` for each connection.
    private func listening(_ script: @escaping @Sendable (Int32) -> Void) throws -> (ScriptedSocketServer, TemporaryDirectory) {
        let directory = TemporaryDirectory("qplay-e2e-silent")
        return (try ScriptedSocketServer(path: directory.appending("qplay.sock").string, script: script), directory)
    }

    private func qplay(_ arguments: [String], socket: String, environment: [String: String] = [:]) throws -> ProcessResult {
        var environment = environment
        environment["QPLAY_SOCKET"] = socket
        return try runProcess(BuiltProducts.url("qplay"), arguments, environment: environment, killAfter: 30)
    }

    @Test func noGreetingExits4NamingTheSocket() throws {
        let (server, directory) = try listening { ScriptedSocketServer.drain($0) }
        defer {
            server.stop()
            directory.remove()
        }
        for arguments in [["status", "--timeout", "1"], ["toggle", "--timeout", "1"], ["queue", "--timeout", "1"]] {
            let result = try qplay(arguments, socket: server.path)
            #expect(!result.killed, "qplay \(arguments) hung")
            #expect(result.status == 4, "qplay \(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr == "qplay: qplayd at \(server.path) sent no greeting within 1 s\n")
        }
        // QPLAY_TIMEOUT stands in for --timeout.
        let viaEnvironment = try qplay(["stats"], socket: server.path, environment: ["QPLAY_TIMEOUT": "0.5"])
        #expect(viaEnvironment.status == 4)
        #expect(viaEnvironment.stderr.contains("sent no greeting within 0.5 s"), "\(viaEnvironment.stderr)")
    }

    @Test func aFullListenQueueExits4() throws {
        // A daemon out of descriptors takes no connection: they wait in the listen queue.
        let directory = TemporaryDirectory("qplay-e2e-full")
        let server = try ScriptedSocketServer(path: directory.appending("qplay.sock").string, accepting: false)
        defer {
            server.stop()
            directory.remove()
        }
        server.fillQueue()
        let result = try qplay(["status", "--timeout", "1"], socket: server.path)
        #expect(!result.killed, "qplay hung")
        #expect(result.status == 4, "\(result.status) \(result.stderr)")
        #expect(result.stderr == "qplay: qplayd at \(server.path) did not take the connection within 1 s\n")
    }

    @Test func noAnswerExits4NamingTheCommand() throws {
        let (server, directory) = try listening { connection in
            ScriptedSocketServer.write(ScriptedSocketServer.greeting, to: connection)
            ScriptedSocketServer.drain(connection)
        }
        defer {
            server.stop()
            directory.remove()
        }
        for (arguments, command) in [(["status"], "status"), (["next"], "next"), (["vol", "50"], "volume")] {
            let result = try qplay(arguments + ["--timeout", "1"], socket: server.path)
            #expect(!result.killed, "qplay \(arguments) hung")
            #expect(result.status == 4, "qplay \(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr == "qplay: qplayd at \(server.path) sent no answer to `\(command)` within 1 s\n")
        }
        // The whole answer must come in time: a line trickled a byte at a time does not
        // keep qplay waiting.
        let (trickler, trickleDirectory) = try listening { connection in
            ScriptedSocketServer.write(ScriptedSocketServer.greeting, to: connection)
            ScriptedSocketServer.readLine(from: connection)
            for byte in Array(#"{"id":1,"ok":true,"result":{"#.utf8) {
                guard ScriptedSocketServer.write([byte], to: connection) else { return }
                usleep(300_000)
            }
            ScriptedSocketServer.drain(connection)
        }
        defer {
            trickler.stop()
            trickleDirectory.remove()
        }
        let trickled = try qplay(["status", "--timeout", "1"], socket: trickler.path)
        #expect(trickled.status == 4, "\(trickled.status) \(trickled.stderr)")
        #expect(trickled.stderr.contains("sent no answer to `status` within 1 s"), "\(trickled.stderr)")
    }

    @Test func aRefusalInsteadOfTheGreetingExits1WithItsMessage() throws {
        let (server, directory) = try listening { ScriptedSocketServer.write(Self.refusal, to: $0) }
        defer {
            server.stop()
            directory.remove()
        }
        for arguments in [["status"], ["play"], ["search", "x"]] {
            let result = try qplay(arguments + ["--timeout", "1"], socket: server.path)
            #expect(result.status == 1, "qplay \(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr == "qplay: too many connections (max_connections = 512); try again later\n")
        }
    }

    @Test func anUnreadableReplyExits1SayingSo() throws {
        let (server, directory) = try listening { connection in
            ScriptedSocketServer.write(ScriptedSocketServer.greeting, to: connection)
            ScriptedSocketServer.readLine(from: connection)
            ScriptedSocketServer.write(Array(#"{"id":1,"ok":true,"result":{"state":"loud"}}"#.utf8) + [10], to: connection)
            ScriptedSocketServer.drain(connection)
        }
        defer {
            server.stop()
            directory.remove()
        }
        let result = try qplay(["status", "--timeout", "1"], socket: server.path)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("qplay: qplayd sent a reply qplay cannot read: `result."), "\(result.stderr)")
        #expect(!result.stderr.contains("DecodingError"))
    }

    @Test func aHugeReplyLineIsRefusedWithoutHoldingIt() throws {
        let lineSize = 200 << 20
        let (server, directory) = try listening { connection in
            ScriptedSocketServer.write(ScriptedSocketServer.greeting, to: connection)
            ScriptedSocketServer.readLine(from: connection)
            guard ScriptedSocketServer.write(Array(#"{"id":1,"ok":true,"result":{"x":""#.utf8), to: connection) else { return }
            let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
            var sent = 0
            // Stops when qplay hangs up, which it should do long before the end.
            while sent < lineSize, ScriptedSocketServer.write(chunk, to: connection) { sent += chunk.count }
            ScriptedSocketServer.write(Array("\"}}\n".utf8), to: connection)
        }
        defer {
            server.stop()
            directory.remove()
        }
        // GNU time prints qplay's peak resident set (KiB) as the last line on stderr.
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/time"),
            ["-f", "peak %M", BuiltProducts.url("qplay").path, "status", "--timeout", "5"],
            environment: ["QPLAY_SOCKET": server.path], killAfter: 60)
        #expect(!result.killed)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("qplay: qplayd sent a reply longer than 64 MiB"), "\(result.stderr)")
        let peakLine = result.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }
        let peakKiB = peakLine.flatMap { Int($0.dropFirst(5)) }
        #expect(peakKiB != nil, "\(result.stderr)")
        // The 64 MiB limit plus the program; a line held whole would be past 200 MiB.
        #expect((peakKiB ?? .max) < 120 << 10, "qplay's peak RSS was \(peakKiB ?? -1) KiB")
    }

    @Test func watchTreatsASilentOrRefusingDaemonAsAwayAndRetries() throws {
        for greets in [false, true] {
            let (server, directory) = try listening { connection in
                if greets {
                    // Greets, then never answers `subscribe`.
                    ScriptedSocketServer.write(ScriptedSocketServer.greeting, to: connection)
                    ScriptedSocketServer.drain(connection)
                } else {
                    ScriptedSocketServer.write(Self.refusal, to: connection)
                }
            }
            defer {
                server.stop()
                directory.remove()
            }
            let watch = try LineReadingProcess(
                BuiltProducts.url("qplay"), ["watch", "--timeout", "1"], environment: ["QPLAY_SOCKET": server.path])
            // Away: the empty line that hides a status bar module.
            #expect(watch.nextLine(timeout: 30) == "", "greets: \(greets)")
            try waitUntil("watch connects again (greets: \(greets))", limit: 30) { server.acceptedCount >= 2 }
            #expect(watch.isRunning)
            watch.terminate()
        }
    }

    @Test func watchPingsAQuietDaemonAndReconnectsWhenThePingGoesUnanswered() throws {
        let requests = LockedLines()
        let status = try WireCoding.bytes(Status(state: .paused, volume: 40, output: OutputStatus(name: "null")))
        let (server, directory) = try listening { connection in
            ScriptedSocketServer.write(ScriptedSocketServer.greeting, to: connection)
            // Answers `subscribe` and `status`, then reads on and answers nothing.
            guard ScriptedSocketServer.readLine(from: connection) != nil else { return }
            ScriptedSocketServer.write(Array(#"{"id":1,"ok":true,"result":{}}"#.utf8) + [10], to: connection)
            guard ScriptedSocketServer.readLine(from: connection) != nil else { return }
            ScriptedSocketServer.write(Array(#"{"id":2,"ok":true,"result":"#.utf8) + status + Array("}\n".utf8), to: connection)
            while let line = ScriptedSocketServer.readLine(from: connection) { requests.append(line) }
        }
        defer {
            server.stop()
            directory.remove()
        }
        let watch = try LineReadingProcess(
            BuiltProducts.url("qplay"), ["watch", "--json", "--timeout", "1"], environment: ["QPLAY_SOCKET": server.path])
        let first = watch.nextLine(timeout: 30)
        #expect(first?.contains(#""volume":40"#) == true, "\(first ?? "no line")")
        // Six quiet timeouts (6 s here), a ping, a second without its answer: a new connection.
        try waitUntil("watch reconnects to a daemon that stopped answering", limit: 40) { server.acceptedCount >= 2 }
        #expect(requests.lines.contains { $0.contains(#""cmd":"ping""#) }, "\(requests.lines)")
        #expect(watch.isRunning)
        watch.terminate()
    }

    @Test func badTemplatesAndTimeoutsAreUsageErrors() throws {
        let socket = "/nonexistent/qplay.sock"
        for (arguments, fragment) in [
            (["status", "--format", "{unknown}"], "unknown placeholder {unknown}"),
            (["status", "--format", "{"], "the { at character 1 is never closed"),
            (["status", "--format", "}"], "the } at character 1 closes no placeholder"),
            (["status", "--format", "{title} }"], "the } at character 9"),
            (["watch", "--format", "{artist"], "never closed"),
            (["status", "--timeout", "0"], "--timeout"),
            (["status", "--timeout", "soon"], "--timeout"),
        ] {
            let result = try qplay(arguments, socket: socket)
            #expect(result.status == 2, "qplay \(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(fragment), "qplay \(arguments): \(result.stderr)")
        }
        let environment = try qplay(["status"], socket: socket, environment: ["QPLAY_TIMEOUT": "-1"])
        #expect(environment.status == 2)
        #expect(environment.stderr.contains("QPLAY_TIMEOUT"), "\(environment.stderr)")
        // Doubled braces are literal: a valid template, so this gets as far as the socket.
        let literal = try qplay(["status", "--format", "{{x}} {title}"], socket: socket)
        #expect(literal.status == 3, "\(literal.stderr)")
    }
}

/// Lines collected on one thread and read on another.
private final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    func append(_ line: String) {
        lock.lock()
        stored.append(line)
        lock.unlock()
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
