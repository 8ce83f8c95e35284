import Synchronization

/// Where services push `CoreEvent`s, fanned out to every frontend (the JSON socket
/// server, the MPD server, MPRIS): each is a `Frontend`, which `Daemon.run` subscribes
/// here before the service group runs. Frontends are created after the services they
/// serve, so they subscribe once they exist.
final class EventPublisher: Sendable {
    private let subscribers = Mutex<[any CoreEventSubscriber]>([])

    func subscribe(_ subscriber: any CoreEventSubscriber) {
        subscribers.withLock { $0.append(subscriber) }
    }

    func publish(_ event: CoreEvent) {
        for subscriber in subscribers.withLock({ $0 }) {
            subscriber.receive(event)
        }
    }
}
