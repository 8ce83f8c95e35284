#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore
import QPlayMPD
import QPlayProtocol
import ServiceLifecycle
import Synchronization

/// The MPD frontend's listeners (docs/MPD.md): MPD's text protocol on TCP addresses and Unix
/// sockets beside qplay's own JSON socket. Each connection runs its requests one at a
/// time through an `MPDSession`; the core's events become idle subsystems
/// (`MPDEventTranslator`) that every connection collects until its next `idle`.
final class MPDServer: Sendable {
    struct Configuration: Sendable {
        var addresses: [MPDAddress]
        var password: String?
        /// Peers on a Unix socket with another uid (SO_PEERCRED) are disconnected at once.
        var allowedUID: UInt32 = getuid()
        /// MPD 0.23 drops a client whose unfinished line fills its 8 KiB input buffer:
        /// 8191 bytes and the newline are the longest line it answers.
        var lineLimit = 8191
        /// As the JSON server: unread output past this pauses the connection.
        var outputLimit = 2 << 20
        var unwritableTimeout: Duration = .seconds(30)
        var maxConnections = 512
        /// As MPD's `connection_timeout`: a client that sends nothing this long, and is
        /// not in `idle`, is closed; sooner before the password. nil: never.
        var connectionTimeout: Duration? = nil
    }

    let configuration: Configuration
    private let commands: MPDCommandContext
    private let logger: Logger
    /// The sockets, the cap, the connections' pipelines: shared with qplay's JSON socket.
    private let listener: LineListener<MPDServer>

    init(configuration: Configuration, commands: MPDCommandContext, logger: Logger, outputBudget: OutputBudget? = nil) {
        self.configuration = configuration
        self.commands = commands
        self.logger = logger
        let cap = configuration.maxConnections
        var refusal = MPDResponse()
        refusal.ack(
            MPDError(.system, "too many connections (max_connections = \(cap)); try again later"), index: 0)
        listener = LineListener(
            settings: .init(
                addresses: configuration.addresses, allowedUID: configuration.allowedUID,
                lineLimit: configuration.lineLimit, outputLimit: configuration.outputLimit,
                unwritableTimeout: configuration.unwritableTimeout, maxConnections: cap,
                greeting: Array("OK MPD \(MPDSession.protocolVersion)\n".utf8), refusal: refusal.bytes,
                client: "an MPD client", loopbackOnly: configuration.password == nil,
                silenceTimeouts: configuration.connectionTimeout.map(SilenceTimeouts.init(connectionTimeout:))),
            logger: logger, outputBudget: outputBudget)
    }

    var connectionCount: Int { listener.connectionCount }

    /// Binds every address (Unix sockets 0600, a stale socket replaced), then accepts.
    /// One address that cannot be used stops them all: the error names it.
    func start() async throws(ServerError) {
        guard !configuration.addresses.isEmpty else { return }
        commands.activity.start(with: await commands.player.snapshot().status)
        commands.activity.onLocalChange { [listener] subsystems in
            for connection in listener.connections { connection.notify(subsystems) }
        }
        try await listener.start(serving: self)
        for address in configuration.addresses {
            logger.info("serving the MPD protocol", metadata: ["address": "\(address)"])
        }
    }

    /// Stops accepting, closes every connection and removes the socket files.
    func shutdown() async {
        await listener.shutdown()
    }

    /// One connection's request loop: a line at a time, answers in order.
    func serve(_ id: ConnectionID, _ connection: MPDConnection, frames: ConnectionFrames) async {
        var session = MPDSession(
            context: commands, connection: connection, password: configuration.password,
            stream: MPDAnswerStream(connection: connection, frames: frames))
        while let frame = await frames.next() {
            switch frame {
            case .tooLong:
                // As MPD: a line that does not fit the input buffer ends the connection.
                logger.notice("closing an MPD client whose line is longer than \(configuration.lineLimit) bytes")
                connection.close()
                continue
            case .line(let bytes):
                switch await session.handle(line: bytes) {
                case .reply(let reply):
                    if !reply.isEmpty { connection.write(reply) }
                case .replyAndClose(let reply):
                    if !reply.isEmpty { connection.write(reply) }
                    connection.close()
                case .idle:
                    break
                }
            }
        }
    }

    // MARK: Events

    /// A core event: each connection gets the subsystems it touches.
    func receive(_ event: CoreEvent) {
        let subsystems = commands.activity.receive(event)
        guard !subsystems.isEmpty else { return }
        for connection in listener.connections {
            connection.notify(subsystems)
        }
    }
}

extension MPDServer: LineSessions {
    func open(_ id: ConnectionID, channel: any Channel) -> MPDConnection {
        MPDConnection(channel: channel, authorized: configuration.password == nil)
    }

    func silence(_ id: ConnectionID, _ connection: MPDConnection) -> ConnectionSilence {
        if connection.isIdle { return .waitsByDesign }
        return connection.isAuthorized ? .authenticated : .unauthenticated
    }

    func closed(_ id: ConnectionID, _ connection: MPDConnection, heldFullOutput: Bool) {}
}

/// The MPD frontend in the daemon's group: binds every address, serves until the group
/// shuts down, then closes its listeners and connections. Each connection's request
/// loop is a child task of `run`, which returns only once all have ended.
extension MPDServer: Frontend {
    func run() async throws {
        do {
            try await start()
        } catch {
            throw FrontendFailure(frontend: "MPD frontend", error: error)
        }
        await withDiscardingTaskGroup { group in
            group.addTask {
                try? await gracefulShutdown()
                await self.shutdown()
            }
            await listener.serveConnections()
        }
    }
}
