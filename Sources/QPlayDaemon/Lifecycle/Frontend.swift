import ServiceLifecycle

/// A way in to the daemon (qplay's JSON socket, MPD, MPRIS): a service of the daemon's
/// `ServiceGroup` and a subscriber of the core's events. `Daemon.run` subscribes every
/// frontend and runs it in the group the same way; a frontend's `run` sets itself up,
/// serves until the group's graceful shutdown, then closes its listeners and
/// connections and returns. A set-up failure throws, and the group shuts down.
protocol Frontend: Service, CoreEventSubscriber {}

/// A frontend beside qplay's own socket that could not start; the daemon names it.
struct FrontendFailure: Error, CustomStringConvertible {
    var frontend: String
    var error: any Error

    var description: String { "\(frontend): \(error)" }
}
