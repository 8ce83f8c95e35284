import Synchronization

/// Where services push `CoreEvent`s, fanned out to every frontend that subscribed (the
/// JSON socket server, the MPD server). Frontends are created after the services they
/// serve, so they subscribe here once they exist.
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
