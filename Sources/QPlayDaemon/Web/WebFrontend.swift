#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import QPlayProtocol
import QPlayStreamOutput
import ServiceLifecycle
import Synchronization

/// The web remote (docs/PROTOCOL.md, "Over a WebSocket"): the page built into qplayd,
/// its pictures and protocol v1 at `/ws`, served by Hummingbird on each address of
/// `http_listen`. A frontend of the daemon's group: it serves until the group's
/// graceful shutdown, then closes its listeners and connections.
///
/// The built-in default address that is taken (another qplayd's page) is logged and the
/// daemon runs on without the page; an address the user configured that cannot be bound
/// stops the start, as MPD's do.
final class WebFrontend: Frontend {
    struct Settings: Sendable {
        var addresses: [MPDAddress]
        var addressesAreDefault: Bool
        var password: String?
        var extraHosts: [String]
        var maxConnections: Int
        /// 60 s, or `QPLAYD_WEB_IDLE_TIMEOUT` seconds (the tests set a short one).
        var idleTimeout: Duration = Settings.idleTimeoutFromEnvironment()
        var headTimeout: Duration = .seconds(10)

        static func idleTimeoutFromEnvironment() -> Duration {
            guard let text = getenv("QPLAYD_WEB_IDLE_TIMEOUT").map({ String(cString: $0) }),
                let seconds = Double(text), seconds > 0, seconds < 86_400
            else { return .seconds(60) }
            return .milliseconds(Int(seconds * 1000))
        }
    }

    private let settings: Settings
    private let sessions: WebSocketSessions
    private let responder: WebResponder
    private let stream: StreamBroadcast?
    private let gate: WebGate.Shared
    private let logger: Logger
    private let eventLoopGroup: any EventLoopGroup

    /// `eventLoopGroup`: the daemon's front loop, shared with the socket server (no
    /// threads of Hummingbird's own).
    init(
        settings: Settings, handler: any RequestHandler, library: LibraryService, eventLoopGroup: any EventLoopGroup,
        stream: StreamBroadcast? = nil, logger: Logger
    ) {
        self.settings = settings
        self.stream = stream
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
        sessions = WebSocketSessions(handler: handler, idleTimeout: settings.idleTimeout, logger: logger)
        let policy = WebPolicy(
            listen: settings.addresses, extraHosts: settings.extraHosts, needsSession: settings.password != nil)
        let signIn = settings.password.map(WebSignIn.init(password:))
        responder = WebResponder(
            policy: policy, signIn: signIn, art: WebArt(library: library), stream: stream,
            nowPlaying: { await Self.status(from: handler) })
        gate = WebGate.Shared(
            policy: policy, signIn: signIn, maxConnections: settings.maxConnections, open: WebConnectionCount(),
            headTimeout: TimeAmount(settings.headTimeout))
    }

    /// The page's requests for the status it is served with go as one connection of
    /// their own, apart from the WebSocket sessions' numbers.
    private static let pageConnection = ConnectionID(rawValue: (1 << 48) - 1)

    private static func status(from handler: any RequestHandler) async -> QPlayProtocol.Status? {
        let response = await withTaskExecutorPreference(globalConcurrentExecutor) {
            await handler.handle(QPlayProtocol.Request(id: nil, .status), connection: pageConnection)
        }
        guard case .success(let result) = response else { return nil }
        return result as? QPlayProtocol.Status
    }

    func receive(_ event: CoreEvent) {
        sessions.publish(Event(event))
    }

    func run() async throws {
        // A stream listener's answer lasts as long as it listens: at the shutdown every
        // listener's stream ends, so the server's wait for its answers does too.
        try await withGracefulShutdownHandler {
            try await serve()
        } onGracefulShutdown: { [stream] in
            stream?.finishAll()
        }
    }

    private func serve() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for address in settings.addresses {
                guard case .tcp(let host, let port) = address else { continue }
                let started = ServingFlag()
                let application = makeApplication(host: host, port: port, started: started)
                group.addTask { [logger, settings] in
                    do {
                        try await application.run()
                    } catch where !started.value.withLock({ $0 }) {
                        if settings.addressesAreDefault {
                            logger.notice("web remote not served: \(address) cannot be used (\(error)); another qplayd may serve it")
                            // A service that returns ends the daemon's group: this one
                            // waits for the shutdown like the others.
                            try? await gracefulShutdown()
                            return
                        }
                        throw FrontendFailure(frontend: "web remote on \(address) (http_listen)", error: error)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    private func makeApplication(host: String, port: Int, started: ServingFlag) -> some ApplicationProtocol {
        let sessions = self.sessions
        let gate = self.gate
        // Counted from the last request part decoded or the last answer written, which a
        // trickled head does not restart: the head timeout of a kept-alive connection.
        var http1 = HTTP1Channel.Configuration(idleTimeout: TimeAmount(settings.headTimeout))
        http1.httpDecoder.maxHeaderListSize = WebGate.headLimit
        http1.httpDecoder.maxHeaderFieldSize = WebGate.headLimit
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: http1,
            ws: .init(maxFrameSize: WebSocketSessions.messageLimit, autoPing: .disabled))
        let server = HTTPServerBuilder { responder in
            WebChildChannel(
                inner: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: configuration) { head, _, _ in
                    guard head.path?.split(separator: "?").first == "/ws" else { return .dontUpgrade }
                    // The gate answered a refused upgrade with its status already; the rules
                    // again on the head as the upgrade code parsed it, so no difference
                    // between the two readings lets one through (then the responder
                    // answers /ws: 421, 401 or 400).
                    let refusal = WebHeadCheck(policy: gate.policy, signIn: gate.signIn).upgradeRefusal(
                        host: head.authority, origin: head.headerFields[.origin],
                        fetchSite: head.headerFields[.init("Sec-Fetch-Site")!], cookie: head.headerFields[.cookie])
                    guard refusal == nil else { return .dontUpgrade }
                    return .upgrade([:]) { inbound, outbound, _ in
                        await sessions.serve(inbound: inbound, outbound: outbound)
                    }
                },
                gate: gate)
        }
        var quiet = logger
        // Hummingbird logs each refused or reset connection as an error.
        quiet.logLevel = .critical
        let logger = self.logger
        return Application(
            responder: responder, server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                started.value.withLock { $0 = true }
                logger.info("web remote at http://\(host.contains(":") ? "[\(host)]" : host):\(channel.localAddress?.port ?? port)/")
            },
            eventLoopGroupProvider: .shared(eventLoopGroup), logger: quiet)
    }
}

/// Set once an address's server is up: a failure before it is a failure to bind.
private final class ServingFlag: Sendable {
    let value = Mutex(false)
}
