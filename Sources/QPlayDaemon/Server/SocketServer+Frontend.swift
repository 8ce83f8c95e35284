import QPlayProtocol
import ServiceLifecycle

/// qplay's JSON socket as a frontend of the daemon's group: it listens, serves until the
/// group shuts down, then closes its connections and removes the socket.
extension SocketServer: Frontend {
    public func run() async throws {
        do {
            try await start()
        } catch {
            listening.open(succeeded: false)
            throw error
        }
        listening.open(succeeded: true)
        try? await gracefulShutdown()
        await shutdown()
    }

    /// Each core event is translated once and encoded once for all its subscribers
    /// (`publish`).
    func receive(_ event: CoreEvent) {
        publish(Event(event))
    }
}
