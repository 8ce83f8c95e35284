import ArgumentParser
import QPlayProtocol

#if canImport(Glibc)
import Glibc
#endif

/// Options every subcommand takes.
struct ConnectionOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The daemon's socket.", valueName: "PATH"))
    var socket: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seconds to wait for the daemon's greeting and for each answer (default 5, or $QPLAY_TIMEOUT).",
            valueName: "SECONDS"))
    var timeout: Timeout?

    @Flag(name: .long, help: "Print the protocol result unchanged (JSON).")
    var json = false

    func validate() throws {
        _ = try Timeout.resolve(explicit: timeout)
    }

    /// The same settings as a plain value (the quick path in QuickInvocation has no
    /// ArgumentParser behind it).
    var connection: Connection {
        // validate() has checked $QPLAY_TIMEOUT already.
        Connection(socket: socket, json: json, timeout: (try? Timeout.resolve(explicit: timeout)) ?? .standard)
    }

    var socketPath: String { connection.socketPath }

    func connect() throws -> SocketClient {
        try connection.connect()
    }

    func run(_ command: Command) throws -> ResponseMessage? {
        try connection.run(command)
    }
}

/// How long qplay waits for the daemon: `--timeout`, else `QPLAY_TIMEOUT`, else 5 s.
struct Timeout: ExpressibleByArgument, Equatable {
    let seconds: Double

    static let standard = Timeout(seconds: 5)

    init(seconds: Double) { self.seconds = seconds }

    /// A positive, finite number of seconds.
    init?(argument: String) {
        guard let value = Double(argument), value.isFinite, value > 0 else { return nil }
        seconds = value
    }

    /// The timeout in force; a malformed `QPLAY_TIMEOUT` is a usage error.
    static func resolve(explicit: Timeout?) throws -> Timeout {
        if let explicit { return explicit }
        guard let raw = getenv("QPLAY_TIMEOUT"), raw.pointee != 0 else { return .standard }
        let text = String(cString: raw)
        guard let value = Timeout(argument: text) else {
            throw ValidationError("QPLAY_TIMEOUT must be a number of seconds greater than 0, got \"\(text)\"")
        }
        return value
    }
}

/// Where the daemon is, how long to wait for it and how to print results: what
/// `--socket`, `--timeout` and `--json` say.
struct Connection {
    var socket: String?
    var json: Bool
    var timeout: Timeout

    var socketPath: String { SocketPath.resolve(explicit: socket) }

    /// Connects and reads the greeting within the timeout; failures become `Failure`s
    /// with their exit codes (see `Failure.report`).
    func connect() throws -> SocketClient {
        do {
            return try SocketClient(path: socketPath, timeout: timeout.seconds)
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

/// What ends a command early, with its exit status (`ExitStatus`).
enum Failure: Error {
    case refused(ProtocolError)
    case connection(ClientError, path: String, source: String)
    /// The daemon answered, but nothing matched: this message, exit 1.
    case nothingMatched(String)

    static func report(_ error: any Error) -> Never {
        switch error {
        case Failure.refused(let error):
            Output.error("qplay: \(error.message)")
            exit(ExitStatus.refused)
        case Failure.nothingMatched(let message):
            Output.error("qplay: \(message)")
            exit(ExitStatus.refused)
        case Failure.connection(.noDaemon(let path, let reason), _, let source):
            Output.error("qplay: no daemon is running: nothing answers on \(path) (\(reason); from \(source)).")
            Output.error("Start one with `qplayd --music ~/Music` (or `systemctl --user start qplayd`),")
            Output.error("or point qplay at it with --socket PATH or QPLAY_SOCKET.")
            exit(ExitStatus.noDaemon)
        case Failure.connection(let error, _, _):
            report(error)
        case let error as ClientError:
            Output.error("qplay: \(error)")
            switch error {
            case .timeout: exit(ExitStatus.noAnswer)
            case .refused, .protocolViolation, .replyTooLong: exit(ExitStatus.refused)
            case .noDaemon, .connection, .closed, .io: exit(ExitStatus.noDaemon)
            }
        case let error as ProtocolError:
            Output.error("qplay: \(error.message)")
            exit(ExitStatus.refused)
        default:
            Output.error("qplay: \(error)")
            exit(ExitStatus.refused)
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
        Failure.report(error)
    }
}
