#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore
import NIOPosix

extension LineListener {
    func bind(_ address: MPDAddress, group: MultiThreadedEventLoopGroup) async throws(ServerError) -> any Channel {
        switch address {
        case .tcp(let host, let port):
            let channel: any Channel
            do {
                channel = try await bootstrap(group: group, unix: false).bind(host: host, port: port).get()
            } catch {
                throw .bind(path: address.description, reason: "\(error)")
            }
            if settings.loopbackOnly, let bound = channel.localAddress, !LoopbackAddress.contains(bound) {
                try? await channel.close()
                throw .bind(
                    path: address.description,
                    reason: "it is bound to \(bound.ipAddress ?? "\(bound)"), which is not a loopback address: other machines could connect without a password; set mpd_password, or listen on 127.0.0.1, ::1 or a socket path")
            }
            return channel
        case .unix(let path):
            let text = path.string
            if try SocketLocation.prepare(path: text, uid: geteuid()) == .replacedStaleSocket {
                logger.notice("replaced a stale socket left by a previous daemon", metadata: ["path": "\(text)"])
            }
            let channel: any Channel
            do {
                channel = try await bootstrap(group: group, unix: true)
                    .bind(unixDomainSocketPath: text, cleanupExistingSocketFile: false).get()
            } catch {
                // Two daemons racing past the stale check: the loser finds the address taken.
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

    private func bootstrap(group: MultiThreadedEventLoopGroup, unix: Bool) -> ServerBootstrap {
        var bootstrap = ServerBootstrap.qplayListener(
            group: group, logger: logger, outputLimit: settings.outputLimit
        ) { [self] channel in
            guard unix else { return channel.eventLoop.makeCompletedFuture { try self.setUp(channel) } }
            return PeerCredentials.requireUser(settings.allowedUID, of: channel, logger: logger, client: settings.client)
                .flatMapThrowing { [self] in try self.setUp(channel) }
        }
        if !unix {
            bootstrap = bootstrap.serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
        }
        return bootstrap
    }

    private struct Stopped: Error {}

    private enum Admission {
        /// `refusedBefore`: connections refused since the cap was last reached.
        case admitted(ConnectionID, Sessions, refusedBefore: Int)
        case refused(first: Bool)
        case stopped
    }

    /// Registers the connection (`LineSessions.open`, under the lock, so the cap holds
    /// on any number of threads) and hands its request loop to `serveConnections`, or
    /// refuses it past the cap.
    private func setUp(_ channel: any Channel) throws {
        let cap = settings.maxConnections
        let admission: Admission = state.withLock { state in
            guard !state.stopped, let sessions = state.sessions else { return .stopped }
            guard state.connections.count < cap else {
                state.refused += 1
                return .refused(first: state.refused == 1)
            }
            let id = ConnectionID(rawValue: state.nextID)
            state.nextID += 1
            state.connections[id] = Entry(connection: sessions.open(id, channel: channel), channel: channel)
            defer { state.refused = 0 }
            return .admitted(id, sessions, refusedBefore: state.refused)
        }
        let id: ConnectionID
        let sessions: Sessions
        switch admission {
        case .stopped:
            throw Stopped()
        case .refused(let first):
            if first {
                logger.warning("\(cap) connections open (max_connections); refusing more until some close")
            }
            try channel.pipeline.syncOperations.addHandler(ConnectionRefusal(line: settings.refusal))
            return
        case .admitted(let admitted, let serving, let refusedBefore):
            if refusedBefore > 0 {
                logger.notice("accepting connections again after refusing \(refusedBefore)")
            }
            id = admitted
            sessions = serving
        }
        guard let connection = self.connection(id) else { throw Stopped() }
        let handler = ConnectionHandler(
            greeting: settings.greeting, lineLimit: settings.lineLimit,
            unwritableTimeout: TimeAmount(settings.unwritableTimeout), logger: logger,
            silence: settings.silenceTimeouts.map { timeouts in
                (timeouts, { sessions.silence(id, connection) })
            },
            onClose: { [self] heldFullOutput in
                _ = self.state.withLock { $0.connections.removeValue(forKey: id) }
                sessions.closed(id, connection, heldFullOutput: heldFullOutput)
            })
        if let outputBudget { try channel.pipeline.syncOperations.addHandler(OutputAccounting(outputBudget)) }
        try channel.pipeline.syncOperations.addHandler(handler)
        let frames = ConnectionFrames(handler, eventLoop: channel.eventLoop)
        let accepted = Accepted(eventLoop: channel.eventLoop) {
            await sessions.serve(id, connection, frames: frames)
        }
        // Shut down since it was admitted: thrown, the channel is closed.
        guard case .enqueued = state.withLock({ $0.accepted?.yield(accepted) }) else { throw Stopped() }
    }
}
