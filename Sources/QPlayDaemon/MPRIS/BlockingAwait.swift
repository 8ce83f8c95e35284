import Dispatch
import Synchronization

/// Runs async work from a thread outside Swift's concurrency pool and waits for it: the
/// D-Bus thread answers each call in order and has nothing else to do meanwhile, and the
/// audio thread's opener waits for a stream's answer. Never used on a pool thread (it
/// would hold one while the work needs one).
enum BlockingAwait {
    static func run<Result: Sendable>(_ work: @escaping @Sendable () async -> Result) -> Result {
        let result = Mutex<Result?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await work()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }

    /// As `run`, but waits only until `deadline`: then the work is cancelled and nil
    /// returned. A result that comes after the waiter gave up goes to `late` instead
    /// (to close what it opened), never to nobody.
    static func run<Result: Sendable>(
        until deadline: ContinuousClock.Instant, _ work: @escaping @Sendable () async -> Result,
        late: @escaping @Sendable (Result) -> Void
    ) -> Result? {
        let handoff = Mutex<(result: Result?, abandoned: Bool)>((nil, false))
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            let value = await work()
            let taken = handoff.withLock { state -> Bool in
                guard !state.abandoned else { return false }
                state.result = value
                return true
            }
            if taken { done.signal() } else { late(value) }
        }
        let left = max(.zero, deadline - .now)
        let nanoseconds = left.components.seconds * 1_000_000_000 + left.components.attoseconds / 1_000_000_000
        if done.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .timedOut {
            let abandoned = handoff.withLock { state -> Bool in
                guard state.result == nil else { return false }
                state.abandoned = true
                return true
            }
            if abandoned {
                task.cancel()
                return nil
            }
            // Handed over at the last moment: its signal is on the way.
            done.wait()
        }
        return handoff.withLock { $0.result }
    }
}
