import QPlayProtocol

/// The JSON frontend's events: each core event is translated once and encoded once for
/// all its subscribers (`publish`).
extension SocketServer: CoreEventSubscriber {
    func receive(_ event: CoreEvent) {
        publish(Event(event))
    }
}
