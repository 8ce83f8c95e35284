#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore
import NIOPosix
import QPlayProtocol
import Synchronization
import SystemPackage

/// The daemon's Unix-socket server for protocol v1 (docs/PROTOCOL.md): JSON Lines, a greeting on
/// connect, responses in request order per connection, `subscribe` with pushed events,
/// many clients at once. Requests go to a `RequestHandler`; events come in through
/// `publish(_:)`.
public final class SocketServer: Sendable {
    public struct Configuration: Sendable {
        public var socketPath: String
        /// Sent in the greeting.
        public var version: String
        /// Peers with another uid (SO_PEERCRED) are disconnected at once.
        public var allowedUID: UInt32
        /// Longest request line in bytes, newline not counted.
        public var lineLimit: Int
        /// Unread output (responses and events) past which a connection is paused: a
        /// subscriber is disconnected rather than buffered for without end, and no more
        /// requests are read or answered until the client reads (the write-buffer
        /// high-water mark; the low-water mark is half of it). 2 MiB: a client that
        /// never reads then costs qplayd well under 10 MB, and a subscriber may still
        /// fall thousands of events behind before it is dropped.
        public var outputLimit: Int
        /// A connection whose output stays over `outputLimit` this long is closed: its
        /// client reads nothing.
        public var unwritableTimeout: Duration
        /// Connections served at once; one more is answered with an `unavailable` line
        /// instead of the greeting and closed.
        public var maxConnections: Int
        public var threads: Int
        /// A connection that sends nothing this long, and is not subscribed to events, is
        /// closed (`connection_timeout`); nil: never.
        public var connectionTimeout: Duration?

        public init(
            socketPath: String, version: String = QPlayVersion.current, allowedUID: UInt32 = getuid(),
            lineLimit: Int = LineFramer.requestLimit, outputLimit: Int = 2 << 20,
            unwritableTimeout: Duration = .seconds(30), maxConnections: Int = 512, threads: Int = 1,
            connectionTimeout: Duration? = nil
        ) {
            self.connectionTimeout = connectionTimeout
            self.socketPath = socketPath
            self.version = version
            self.allowedUID = allowedUID
            self.lineLimit = lineLimit
            self.outputLimit = outputLimit
            self.unwritableTimeout = unwritableTimeout
            self.maxConnections = maxConnections
            self.threads = threads
        }
    }

    private struct Client {
        let channel: any Channel
        var subscriptions: Set<EventKind> = []
    }

    /// The connections, for their subscriptions; the listener keeps its own table.
    private struct State {
        var clients: [ConnectionID: Client] = [:]
    }

    public let configuration: Configuration
    private let handler: any RequestHandler
    private let logger: Logger
    private let state = Mutex(State())
    /// Trims the heap after a client that left a full write buffer behind goes away.
    private let memory = IdleMemoryRelease()
    /// Held while event and subscribe-response lines are queued for writing, so events
    /// leave in publishing order and a subscriber sees none before its `{}`.
    private let delivery = Mutex(())
    /// Told how many connections subscribe to `level` whenever that may have changed.
    private let levelListeners: @Sendable (Int) -> Void
    /// The socket, the cap, the connections' pipelines: shared with MPD's frontend.
    private let listener: LineListener<SocketServer>
    /// Opened once `run` has bound the socket, or failed to: the core starts what
    /// clients should see from their first connection after it.
    let listening = StartupGate()

    /// `eventLoopGroup`: serve on this group instead of one of the server's own; the
    /// caller shuts it down after the server. The daemon lends its loop so the level
    /// meter's publisher can run there and write events without a thread hop.
    /// `outputBudget`: the bound on every connection's unread output together (none:
    /// only each connection's own bound).
    public init(
        configuration: Configuration, handler: any RequestHandler, logger: Logger = Logger(label: "qplay.server"),
        eventLoopGroup: MultiThreadedEventLoopGroup? = nil, outputBudget: OutputBudget? = nil,
        levelListeners: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.handler = handler
        self.logger = logger
        self.levelListeners = levelListeners
        let cap = configuration.maxConnections
        listener = LineListener(
            settings: .init(
                addresses: [.unix(FilePath(configuration.socketPath))], allowedUID: configuration.allowedUID,
                lineLimit: configuration.lineLimit, outputLimit: configuration.outputLimit,
                unwritableTimeout: configuration.unwritableTimeout, maxConnections: cap,
                greeting: Greeting(version: configuration.version).encodedLine(),
                refusal: Response.failure(
                    .unavailable("too many connections (max_connections = \(cap)); try again later")
                ).encodedLine(id: nil),
                client: "a client",
                silenceTimeouts: configuration.connectionTimeout.map(SilenceTimeouts.init(connectionTimeout:))),
            logger: logger, eventLoopGroup: eventLoopGroup, threads: configuration.threads, outputBudget: outputBudget)
    }

    private func reportLevelListeners() {
        levelListeners(state.withLock { state in state.clients.values.count(where: { $0.subscriptions.contains(.level) }) })
    }

    /// Number of open client connections.
    public var connectionCount: Int { listener.connectionCount }

    /// Prepares the directory (0700 when created), refuses when a daemon already answers
    /// on the socket, replaces a stale socket, binds, sets the socket to 0600, and only
    /// then starts accepting.
    /// Outside a service group (`run`), its connections' request loops run in a task
    /// group of their own.
    public func start() async throws(ServerError) {
        try await listen()
        let listener = self.listener
        Task { await listener.serveConnections() }
    }

    func listen() async throws(ServerError) {
        try await listener.start(serving: self)
        logger.info("listening", metadata: ["socket": "\(configuration.socketPath)"])
    }

    /// Runs the connections' request loops until `shutdown`; returns once all ended.
    func serveConnections() async {
        await listener.serveConnections()
    }

    /// Pushes `event` to every connection subscribed to its kind. Never blocks: a client
    /// that stopped reading is disconnected once its backlog passes `outputLimit`.
    public func publish(_ event: Event) {
        let kind = event.kind
        var buffer: ByteBuffer?
        delivery.withLock { _ in
            let channels = state.withLock { state in
                state.clients.values.filter { $0.subscriptions.contains(kind) }.map(\.channel)
            }
            for channel in channels {
                if buffer == nil { buffer = ByteBuffer(bytes: event.encodedLine()) }
                if channel.isWritable {
                    channel.writeAndFlush(buffer!, promise: nil)
                } else {
                    logger.warning("disconnecting a subscriber that does not read its events")
                    channel.close(promise: nil)
                }
            }
        }
    }

    /// Stops accepting, closes every connection, removes the socket file. Requests being
    /// handled finish, but their responses are not delivered.
    public func shutdown() async {
        guard listener.isListening else { return }
        await listener.shutdown()
        logger.info("socket closed", metadata: ["socket": "\(configuration.socketPath)"])
    }
}

extension SocketServer: LineSessions {
    func open(_ id: ConnectionID, channel: any Channel) -> any Channel {
        state.withLock { $0.clients[id] = Client(channel: channel) }
        return channel
    }

    /// The socket's peers are the user's own processes (checked on connect): none is a
    /// stranger. A subscriber waits for events, for days in a status bar.
    func silence(_ id: ConnectionID, _ channel: any Channel) -> ConnectionSilence {
        state.withLock { $0.clients[id]?.subscriptions.isEmpty == false } ? .waitsByDesign : .authenticated
    }

    func closed(_ id: ConnectionID, _ channel: any Channel, heldFullOutput: Bool) {
        let left = state.withLock { $0.clients.removeValue(forKey: id) }
        if left?.subscriptions.contains(.level) == true { reportLevelListeners() }
        // Its buffered responses were just freed; glibc would keep the pages.
        if heldFullOutput { memory.queryAnswered() }
    }

    /// The request loop of one connection: one request at a time, so responses leave in
    /// request order. `frames` hands out the next request only once the client has room
    /// for its answer (see `ConnectionHandler`).
    func serve(_ id: ConnectionID, _ channel: any Channel, frames: ConnectionFrames) async {
        while let frame = await frames.next() {
            let reply: [UInt8]
            switch frame {
            case .tooLong:
                reply = Response.failure(
                    .lineTooLong(
                        "request line longer than \(configuration.lineLimit) bytes; it was discarded"))
                    .encodedLine(id: nil)
            case .line(let bytes):
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                switch Request.decode(line: bytes) {
                case .failure(let failure):
                    reply = Response.failure(failure.error).encodedLine(id: failure.id)
                case .success(let request):
                    if case .subscribe(let kinds) = request.command {
                        // Subscribed and answered in one step for `publish`: every event
                        // published after the client reads `{}` reaches it, none before.
                        let reply = Response.empty.encodedLine(id: request.id)
                        delivery.withLock { _ in
                            state.withLock { $0.clients[id]?.subscriptions = kinds }
                            write(reply, to: channel)
                        }
                        reportLevelListeners()
                        continue
                    }
                    let response: Response
                    if request.command.isAnsweredFromMemory {
                        response = await handler.handle(request, connection: id)
                    } else {
                        // Searches, scans and state writes may take milliseconds: off the
                        // event loop, so that other clients' requests keep flowing.
                        response = await withTaskExecutorPreference(globalConcurrentExecutor) {
                            await handler.handle(request, connection: id)
                        }
                    }
                    reply = response.encodedLine(id: request.id)
                }
            }
            write(reply, to: channel)
        }
        await handler.connectionClosed(id)
    }

    private func write(_ line: [UInt8], to channel: any Channel) {
        // On the channel's event loop (the request loop's executor) this writes at once;
        // elsewhere NIO hops to the loop. On a connection the client already closed this
        // fails, which harms nothing.
        channel.writeAndFlush(ByteBuffer(bytes: line), promise: nil)
    }
}

extension Command {
    /// Commands the daemon answers from state it holds in memory, without disk or
    /// library work: they run on the connection's event loop.
    var isAnsweredFromMemory: Bool {
        switch self {
        case .ping, .status: true
        default: false
        }
    }
}
