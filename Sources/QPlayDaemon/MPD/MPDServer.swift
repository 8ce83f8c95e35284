#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore
import NIOPosix
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
    }

    private struct State {
        var group: MultiThreadedEventLoopGroup?
        var listeners: [(any Channel, MPDAddress)] = []
        var connections: [UInt64: MPDConnection] = [:]
        var nextID: UInt64 = 1
        var stopped = false
    }

    let configuration: Configuration
    private let commands: MPDCommandContext
    private let logger: Logger
    private let state = Mutex(State())

    /// The daemon's bound on all connections' unread output, shared with the JSON socket.
    private let outputBudget: OutputBudget?

    init(configuration: Configuration, commands: MPDCommandContext, logger: Logger, outputBudget: OutputBudget? = nil) {
        self.configuration = configuration
        self.commands = commands
        self.logger = logger
        self.outputBudget = outputBudget
    }

    var connectionCount: Int { state.withLock { $0.connections.count } }

    /// Binds every address (Unix sockets 0600, a stale socket replaced), then accepts.
    /// One address that cannot be used stops them all: the error names it.
    func start() async throws(ServerError) {
        guard !configuration.addresses.isEmpty else { return }
        commands.activity.start(with: await commands.player.snapshot().status)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var bound: [(any Channel, MPDAddress)] = []
        func abandon() async {
            for (channel, address) in bound {
                try? await channel.close()
                if case .unix(let path) = address { unlink(path.string) }
            }
            try? await group.shutdownGracefully()
        }
        for address in configuration.addresses {
            do {
                bound.append((try await bind(address, group: group), address))
            } catch {
                await abandon()
                throw error
            }
        }
        state.withLock {
            $0.group = group
            $0.listeners = bound
        }
        for (channel, address) in bound {
            do {
                try await channel.setOption(ChannelOptions.autoRead, value: true).get()
            } catch {
                await shutdown()
                throw .bind(path: address.description, reason: "\(error)")
            }
            logger.info("serving the MPD protocol", metadata: ["address": "\(address)"])
        }
    }

    private func bind(_ address: MPDAddress, group: MultiThreadedEventLoopGroup) async throws(ServerError) -> any Channel {
        switch address {
        case .tcp(let host, let port):
            do {
                return try await makeBootstrap(group: group, unix: false).bind(host: host, port: port).get()
            } catch {
                throw .bind(path: address.description, reason: "\(error)")
            }
        case .unix(let path):
            let text = path.string
            if try SocketLocation.prepare(path: text, uid: geteuid()) == .replacedStaleSocket {
                logger.notice("replaced a stale MPD socket", metadata: ["path": "\(text)"])
            }
            let channel: any Channel
            do {
                channel = try await makeBootstrap(group: group, unix: true)
                    .bind(unixDomainSocketPath: text, cleanupExistingSocketFile: false).get()
            } catch {
                if SocketLocation.probe(text) == 0 { throw .alreadyRunning(path: text) }
                throw .bind(path: text, reason: "\(error)")
            }
            guard chmod(text, 0o600) == 0 else {
                let code = errno
                try? await channel.close()
                throw .system(operation: "chmod", path: text, errno: code)
            }
            return channel
        }
    }

    /// Stops accepting, closes every connection and removes the socket files.
    func shutdown() async {
        let (group, listeners, connections) = state.withLock { state in
            state.stopped = true
            defer {
                state.group = nil
                state.listeners = []
            }
            return (state.group, state.listeners, Array(state.connections.values))
        }
        guard let group else { return }
        for (channel, address) in listeners {
            try? await channel.close()
            if case .unix(let path) = address { unlink(path.string) }
        }
        for connection in connections { connection.close() }
        try? await group.shutdownGracefully()
    }

    private func makeBootstrap(group: MultiThreadedEventLoopGroup, unix: Bool) -> ServerBootstrap {
        var bootstrap = ServerBootstrap.qplayListener(
            group: group, logger: logger, outputLimit: configuration.outputLimit
        ) { [self] channel in
            unix ? self.admitLocal(channel) : channel.eventLoop.makeCompletedFuture { try self.setUp(channel) }
        }
        if !unix {
            bootstrap = bootstrap.serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
        }
        return bootstrap
    }

    /// A Unix-socket peer must be this user, as on qplay's own socket.
    private func admitLocal(_ channel: any Channel) -> EventLoopFuture<Void> {
        PeerCredentials.requireUser(configuration.allowedUID, of: channel, logger: logger, client: "an MPD client")
            .flatMapThrowing { [self] in try self.setUp(channel) }
    }

    private struct ServerStopped: Error {}
    private struct TooMany: Error {}

    private func setUp(_ channel: any Channel) throws {
        let cap = configuration.maxConnections
        let connection = MPDConnection(channel: channel)
        let id: UInt64 = try state.withLock { state in
            guard !state.stopped else { throw ServerStopped() }
            guard state.connections.count < cap else { throw TooMany() }
            let id = state.nextID
            state.nextID += 1
            state.connections[id] = connection
            return id
        }
        let handler = ConnectionHandler(
            greeting: Array("OK MPD \(MPDSession.protocolVersion)\n".utf8), lineLimit: configuration.lineLimit,
            unwritableTimeout: TimeAmount(configuration.unwritableTimeout), logger: logger,
            onClose: { [self] _ in
                _ = self.state.withLock { $0.connections.removeValue(forKey: id) }
            })
        if let outputBudget { try channel.pipeline.syncOperations.addHandler(OutputAccounting(outputBudget)) }
        try channel.pipeline.syncOperations.addHandler(handler)
        let frames = ConnectionFrames(handler, eventLoop: channel.eventLoop)
        let session = MPDSession(
            context: commands, connection: connection, password: configuration.password)
        Task(executorPreference: EventLoopTaskExecutor(channel.eventLoop)) {
            await self.serve(session, connection: connection, frames: frames)
        }
    }

    /// One connection's request loop: a line at a time, answers in order.
    private func serve(_ session: MPDSession, connection: MPDConnection, frames: ConnectionFrames) async {
        var session = session
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
        let connections = state.withLock { Array($0.connections.values) }
        for connection in connections {
            connection.notify(subsystems)
        }
    }
}

/// The MPD frontend in the daemon's group: binds every address, serves until the group
/// shuts down, then closes its listeners and connections.
extension MPDServer: Frontend {
    func run() async throws {
        do {
            try await start()
        } catch {
            throw FrontendFailure(frontend: "MPD frontend", error: error)
        }
        try? await gracefulShutdown()
        await shutdown()
    }
}
