import QPlayProtocol
import Synchronization

/// Where services push protocol events. The socket server is created after the
/// services it dispatches to, so it is attached here once it exists.
final class EventPublisher: Sendable {
    private let server = Mutex<SocketServer?>(nil)

    func attach(_ server: SocketServer) {
        self.server.withLock { $0 = server }
    }

    func publish(_ event: Event) {
        server.withLock { $0 }?.publish(event)
    }
}
