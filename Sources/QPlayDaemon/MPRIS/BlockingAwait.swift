import Dispatch
import Synchronization

/// Runs async work from a thread outside Swift's concurrency pool and waits for it: the
/// D-Bus thread answers each call in order and has nothing else to do meanwhile. Never
/// used on a pool thread (it would hold one while the work needs one).
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
}
