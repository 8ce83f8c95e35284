import Dispatch

extension Duration {
    /// The whole nanoseconds of a duration (negative ones are zero).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// That long from now, for a semaphore's timed wait.
    var fromNow: DispatchTime { .now() + .nanoseconds(Int(nanoseconds)) }
}
