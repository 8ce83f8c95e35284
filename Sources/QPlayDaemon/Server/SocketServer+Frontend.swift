import QPlayProtocol
import ServiceLifecycle

/// qplay's JSON socket as a frontend of the daemon's group: it listens, serves until the
/// group shuts down, then closes its connections and removes the socket. Each
/// connection's request loop is a child task of `run`, which returns only once all have
/// ended: the group's later services (the core's save) wait for requests under way.
extension SocketServer: Frontend {
    public func run() async throws {
        do {
            try await listen()
        } catch {
            listening.open(succeeded: false)
            throw error
        }
        listening.open(succeeded: true)
        await withDiscardingTaskGroup { group in
            group.addTask {
                try? await gracefulShutdown()
                await self.shutdown()
            }
            await serveConnections()
        }
    }

    /// Each core event is translated once and encoded once for all its subscribers
    /// (`publish`).
    func receive(_ event: CoreEvent) {
        publish(Event(event))
    }
}
