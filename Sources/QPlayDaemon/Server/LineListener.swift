#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// What a line-based frontend does with its connections; `LineListener` does the rest.
protocol LineSessions<Connection>: Sendable {
    associatedtype Connection: Sendable

    /// A connection was admitted: the frontend's own state for it.
    func open(_ id: ConnectionID, channel: any Channel) -> Connection
    /// The connection's request loop: takes lines from `frames` until it gives nil.
    func serve(_ id: ConnectionID, _ connection: Connection, frames: ConnectionFrames) async
    /// On the event loop, once the channel closed. `heldFullOutput`: the client had left
    /// its write buffer full at some point.
    func closed(_ id: ConnectionID, _ connection: Connection, heldFullOutput: Bool)
    /// What the connection is doing while it sends nothing, for its silence timeout; from
    /// the event loop, now and then.
    func silence(_ id: ConnectionID, _ connection: Connection) -> ConnectionSilence
}

/// The listening side every line-based frontend shares (qplay's JSON socket, MPD): binds
/// Unix sockets (0600, a stale one replaced, another daemon's refused) and TCP
/// addresses, accepts only once all are bound, checks a Unix peer's uid, holds the
/// connection cap — one more gets the frontend's refusal line in place of the greeting
/// and is closed, logged once per run of refusals — charges output to the daemon's
/// `OutputBudget`, runs each connection's request loop as a child task of
/// `serveConnections` on its event loop, and at shutdown closes the listeners, the
/// connections and removes the socket files.
final class LineListener<Sessions: LineSessions>: Sendable {
    struct Settings: Sendable {
        var addresses: [MPDAddress]
        /// Peers on a Unix socket with another uid (SO_PEERCRED) are disconnected at once.
        var allowedUID: UInt32
        var lineLimit: Int
        /// Unread output past which a connection is paused (`ConnectionHandler`).
        var outputLimit: Int
        var unwritableTimeout: Duration
        var maxConnections: Int
        var greeting: [UInt8]
        /// What a connection past `maxConnections` gets in place of the greeting.
        var refusal: [UInt8]
        /// Who connects, in log lines: "a client", "an MPD client".
        var client: String
        /// Serving without a password: a TCP address must be bound to loopback
        /// (`LoopbackAddress`), whatever name it was given, or the start fails.
        var loopbackOnly = false
        /// How long a connection may send nothing (`ConnectionHandler`); nil: for ever.
        var silenceTimeouts: SilenceTimeouts? = nil
    }

    struct Entry {
        let connection: Sessions.Connection
        let channel: any Channel
    }

    /// An admitted connection's request loop, for the task group of `serveConnections`.
    struct Accepted: Sendable {
        let eventLoop: any EventLoop
        let serve: @Sendable () async -> Void
    }

    struct State {
        var sessions: Sessions?
        /// Where the accept path yields admitted connections; finished at shutdown.
        var accepted: AsyncStream<Accepted>.Continuation?
        /// The other end, until `serveConnections` takes it.
        var pending: AsyncStream<Accepted>?
        var group: MultiThreadedEventLoopGroup?
        var listeners: [(any Channel, MPDAddress)] = []
        var connections: [ConnectionID: Entry] = [:]
        var nextID: UInt64 = 1
        var stopped = false
        /// `serveConnections` runs: the event loops it made are released once every
        /// request loop has ended, not at `shutdown`.
        var serving = false
        /// Connections refused since the cap was last reached, for the log.
        var refused = 0
    }

    let settings: Settings
    let logger: Logger
    private let lentGroup: MultiThreadedEventLoopGroup?
    let outputBudget: OutputBudget?
    let state = Mutex(State())
    private let ownThreads: Int

    /// `eventLoopGroup`: serve on the caller's group, which outlives the listener;
    /// otherwise on one of its own with `threads` threads.
    init(
        settings: Settings, logger: Logger, eventLoopGroup: MultiThreadedEventLoopGroup? = nil,
        threads: Int = 1, outputBudget: OutputBudget? = nil
    ) {
        self.settings = settings
        self.logger = logger
        self.lentGroup = eventLoopGroup
        self.outputBudget = outputBudget
        self.ownThreads = max(1, threads)
    }

    /// Between a successful `start` and `shutdown`.
    var isListening: Bool { state.withLock { $0.group != nil } }

    var connectionCount: Int { state.withLock { $0.connections.count } }

    var connections: [Sessions.Connection] { state.withLock { $0.connections.values.map(\.connection) } }

    func connection(_ id: ConnectionID) -> Sessions.Connection? { state.withLock { $0.connections[id]?.connection } }

    /// Binds every address, then accepts. One address that cannot be used stops them
    /// all: the error names it, and what was bound is closed again.
    func start(serving sessions: Sessions) async throws(ServerError) {
        let owned = lentGroup == nil
        let group = lentGroup ?? MultiThreadedEventLoopGroup(numberOfThreads: ownThreads)
        var bound: [(any Channel, MPDAddress)] = []
        for address in settings.addresses {
            do {
                bound.append((try await bind(address, group: group), address))
            } catch {
                for (channel, address) in bound {
                    try? await channel.close()
                    if case .unix(let path) = address { unlink(path.string) }
                }
                if owned { try? await group.shutdownGracefully() }
                throw error
            }
        }
        // Unbounded: the connection cap already bounds what can wait in it.
        let (stream, continuation) = AsyncStream<Accepted>.makeStream()
        state.withLock {
            $0.sessions = sessions
            $0.group = group
            $0.listeners = bound
            $0.accepted = continuation
            $0.pending = stream
        }
        for (channel, address) in bound {
            do {
                try await channel.setOption(ChannelOptions.autoRead, value: true).get()
            } catch {
                await shutdown()
                throw .bind(path: address.description, reason: "\(error)")
            }
        }
    }

    /// Runs every admitted connection's request loop as a child task, on the
    /// connection's event loop, until `shutdown`; returns once every request loop has
    /// ended (a request under way is finished first), and only then shuts down the event
    /// loops the listener made. A request loop whose work ran off its event loop (a
    /// search) resumes on that loop: shut down under it, NIO would drop the job, and the
    /// loop and every caller waiting on it would never end.
    func serveConnections() async {
        let stream = state.withLock { state in
            defer { state.pending = nil }
            if state.pending != nil { state.serving = true }
            return state.pending
        }
        guard let stream else { return }
        await withDiscardingTaskGroup { group in
            for await accepted in stream {
                group.addTask(executorPreference: EventLoopTaskExecutor(accepted.eventLoop)) {
                    await accepted.serve()
                }
            }
        }
        let group = state.withLock { state in
            defer { state.group = nil }
            return state.group
        }
        if let group, lentGroup == nil { try? await group.shutdownGracefully() }
    }

    /// Stops accepting, closes every connection, removes the socket files. Requests
    /// being handled finish, but their answers are not delivered. The event loops the
    /// listener made are shut down here unless `serveConnections` runs (it does it once
    /// the last request loop has ended).
    func shutdown() async {
        let (group, listeners, channels, accepted, serving) = state.withLock { state in
            state.stopped = true
            let group = state.group
            defer {
                if !state.serving { state.group = nil }
                state.listeners = []
                state.accepted = nil
            }
            return (group, state.listeners, state.connections.values.map(\.channel), state.accepted, state.serving)
        }
        guard let group else {
            accepted?.finish()
            return
        }
        for (channel, address) in listeners {
            try? await channel.close()
            if case .unix(let path) = address { unlink(path.string) }
        }
        for channel in channels { try? await channel.close() }
        // Only now may `serveConnections` end and shut the event loops down: a close
        // awaited on a loop already shut down would never complete.
        accepted?.finish()
        if lentGroup == nil, !serving { try? await group.shutdownGracefully() }
    }
}
