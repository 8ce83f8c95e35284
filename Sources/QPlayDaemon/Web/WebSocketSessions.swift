import Logging
import NIOCore
import NIOWebSocket
import QPlayProtocol
import ServiceLifecycle
import Synchronization
import WSCore

/// Protocol v1 over the web remote's WebSockets: the greeting first, then each text
/// message one request answered by the daemon's `RequestHandler` (the socket's
/// `CommandDispatcher`), `subscribe` kept here as the socket server keeps it, events as
/// text messages — the socket's lines without their newline.
///
/// Each connection's messages leave through one queue, in order; a subscriber that lets
/// `backlogLimit` messages pile up unread is closed, as the socket drops one that does
/// not read. A connection that sends nothing for `idleTimeout` is closed (the page
/// pings every few seconds).
final class WebSocketSessions: Sendable {
    /// A protocol request line's limit: a longer message closes the connection.
    static let messageLimit = LineFramer.requestLimit
    static let backlogLimit = 4096

    private struct Client {
        let output: AsyncStream<[UInt8]>.Continuation
        var subscriptions: Set<EventKind> = []
    }

    private let handler: any RequestHandler
    private let logger: Logger
    private let idleTimeout: Duration
    /// Held while event and subscribe answers are queued, so a subscriber sees every
    /// event after its `{}` and none before, in publishing order.
    private let clients = Mutex<[ConnectionID: Client]>([:])
    /// Kept apart from the socket's and MPD's numbers: the dispatcher tells connections
    /// apart by them (a held button belongs to one).
    private let nextID = Mutex<UInt64>(1 << 48)

    init(handler: any RequestHandler, idleTimeout: Duration, logger: Logger) {
        self.handler = handler
        self.idleTimeout = idleTimeout
        self.logger = logger
    }

    func publish(_ event: Event) {
        let kind = event.kind
        var line: [UInt8]?
        clients.withLock { clients in
            for (id, client) in clients where client.subscriptions.contains(kind) {
                if line == nil { line = Self.message(event.encodedLine()) }
                if case .dropped = client.output.yield(line!) {
                    logger.warning("closing a web remote that does not read its events")
                    client.output.finish()
                    clients[id]?.subscriptions = []
                }
            }
        }
    }

    /// One WebSocket connection, until either side ends it.
    func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
        let id = nextID.withLock { next in
            defer { next += 1 }
            return ConnectionID(rawValue: next)
        }
        let (stream, output) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingOldest(Self.backlogLimit))
        clients.withLock { $0[id] = Client(output: output) }
        output.yield(Self.message(Greeting(version: QPlayVersion.current).encodedLine()))
        let lastHeard = LastHeard()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await message in stream {
                    let frame = WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: message))
                    do { try await outbound.write(.custom(frame)) } catch { return }
                }
            }
            group.addTask {
                do {
                    for try await message in inbound.messages(maxSize: Self.messageLimit) {
                        lastHeard.instant.withLock { $0 = .now }
                        let bytes: [UInt8]
                        switch message {
                        case .text(let text): bytes = Array(text.utf8)
                        case .binary(let buffer): bytes = Array(buffer.readableBytesView)
                        }
                        await self.answer(bytes, connection: id, output: output)
                    }
                } catch {
                    self.logger.debug("web remote connection ended: \(error)")
                }
            }
            group.addTask { [idleTimeout] in
                while !Task.isCancelled {
                    let quiet = ContinuousClock.now - lastHeard.instant.withLock { $0 }
                    if quiet >= idleTimeout {
                        self.logger.info("closing a web remote silent for \(idleTimeout)")
                        return
                    }
                    try? await Task.sleep(for: idleTimeout - quiet)
                }
            }
            group.addTask {
                // qplayd is stopping: end the session now rather than when the client
                // goes silent (the shutdown waits for every connection). Without a
                // service group around it this waits until the others end it.
                try? await gracefulShutdown()
            }
            // Whichever ends first (the client left, went silent, stopped reading, or
            // qplayd is stopping) ends the others; returning closes the WebSocket.
            await group.next()
            output.finish()
            group.cancelAll()
        }
        clients.withLock { _ = $0.removeValue(forKey: id) }
        await handler.connectionClosed(id)
    }

    private func answer(_ bytes: [UInt8], connection id: ConnectionID, output: AsyncStream<[UInt8]>.Continuation) async {
        let reply: [UInt8]
        switch WebSocketInbound(bytes) {
        case .nothing:
            return
        case .reply(let line):
            reply = line
        case .subscribe(let requestID, let kinds):
            let line = Self.message(Response.empty.encodedLine(id: requestID))
            clients.withLock { clients in
                clients[id]?.subscriptions = kinds
                output.yield(line)
            }
            return
        case .request(let request):
            let handler = self.handler
            let response = await withTaskExecutorPreference(globalConcurrentExecutor) {
                await handler.handle(request, connection: id)
            }
            reply = response.encodedLine(id: request.id)
        }
        clients.withLock { _ in
            if case .dropped = output.yield(Self.message(reply)) { output.finish() }
        }
    }

    private static func message(_ line: [UInt8]) -> [UInt8] {
        WebSocketInbound.message(line)
    }
}

/// When a connection's client last sent a message.
private final class LastHeard: Sendable {
    let instant = Mutex(ContinuousClock.now)
}
