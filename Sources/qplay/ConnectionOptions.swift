import ArgumentParser
import QPlayProtocol

#if canImport(Glibc)
import Glibc
#endif

/// Options every subcommand takes.
struct ConnectionOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The daemon's socket.", valueName: "PATH"))
    var socket: String?

    @Flag(name: .long, help: "Print the protocol result unchanged (JSON).")
    var json = false

    /// The same settings as a plain value (the quick path in QuickInvocation has no
    /// ArgumentParser behind it).
    var connection: Connection { Connection(socket: socket, json: json) }

    var socketPath: String { connection.socketPath }

    func connect(timeout: Double? = 30) throws -> SocketClient {
        try connection.connect(timeout: timeout)
    }

    func run(_ command: Command) throws -> ResponseMessage? {
        try connection.run(command)
    }
}

/// Where the daemon is and how to print results: what `--socket` and `--json` say.
struct Connection {
    var socket: String?
    var json: Bool

    var socketPath: String { SocketPath.resolve(explicit: socket) }

    /// Connects, or exits 3 saying where it looked and how to start a daemon.
    func connect(timeout: Double? = 30) throws -> SocketClient {
        do {
            return try SocketClient(path: socketPath, timeout: timeout)
        } catch {
            throw Failure.connection(error, path: socketPath, source: source)
        }
    }

    /// Sends one command; a refusal exits 1 with the daemon's message. With `--json` the
    /// result is printed unchanged and nil is returned.
    func run(_ command: Command) throws -> ResponseMessage? {
        let client = try connect()
        defer { client.close() }
        let response: ResponseMessage
        do {
            response = try client.send(command)
        } catch {
            throw Failure.connection(error, path: socketPath, source: source)
        }
        if let error = response.error { throw Failure.refused(error) }
        if json {
            Output.bytes((response.rawResult ?? ArraySlice("{}".utf8)) + [10])
            return nil
        }
        return response
    }

    /// Where the socket path came from, for the no-daemon message.
    var source: String {
        if socket != nil { return "--socket" }
        if let value = getenv("QPLAY_SOCKET"), value.pointee != 0 { return "$QPLAY_SOCKET" }
        return "the default path"
    }
}

/// What ends a command early, with its exit code.
enum Failure: Error {
    case refused(ProtocolError)
    case connection(ClientError, path: String, source: String)

    static func report(_ error: any Error) -> Never {
        switch error {
        case Failure.refused(let error):
            Output.error("qplay: \(error.message)")
            exit(1)
        case Failure.connection(.noDaemon(let path, let reason), _, let source):
            Output.error("qplay: no daemon is running: nothing answers on \(path) (\(reason); from \(source)).")
            Output.error("Start one with `qplayd --music ~/Music` (or `systemctl --user start qplayd`),")
            Output.error("or point qplay at it with --socket PATH or QPLAY_SOCKET.")
            exit(3)
        case Failure.connection(let error, _, _):
            Output.error("qplay: \(error)")
            exit(3)
        case let error as ProtocolError:
            Output.error("qplay: \(error.message)")
            exit(1)
        default:
            Output.error("qplay: \(error)")
            exit(1)
        }
    }
}

/// Runs a subcommand body, turning failures into their exit codes.
func performing(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as Failure {
        Failure.report(error)
    } catch let error as ProtocolError {
        Failure.report(error)
    } catch let error as ClientError {
        Failure.report(Failure.connection(error, path: "", source: ""))
    }
}
