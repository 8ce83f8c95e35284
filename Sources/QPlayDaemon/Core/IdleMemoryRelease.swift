import Dispatch
import QPlayLibrary
import Synchronization

/// Gives freed heap memory back to the kernel once the daemon has been quiet for a
/// moment after a library query.
///
/// A search or an `add` builds its result (a path and a title per track, then their wire
/// form) and frees it once the response is written. glibc keeps those freed pages for
/// reuse, so a daemon that answered a few large queries would stay ~1 MB (20,000 tracks)
/// to ~8 MB (a one-letter search of 100,000) bigger for as long as it idles — which is
/// most of its life. Trimming inside the query cannot help: the result is still alive
/// then. So each query (re)arms a timer, and only the last of a burst trims.
final class IdleMemoryRelease: Sendable {
    /// Runs a closure later (after the quiet delay); injectable so tests need no clock.
    typealias Scheduler = @Sendable (@escaping @Sendable () -> Void) -> Void

    private let armed = Mutex<UInt64>(0)
    private let schedule: Scheduler
    private let release: @Sendable () -> Void

    init(
        schedule: @escaping Scheduler = IdleMemoryRelease.after(.milliseconds(300)),
        release: @escaping @Sendable () -> Void = MemoryTrim.releaseFreeMemory
    ) {
        self.schedule = schedule
        self.release = release
    }

    /// A query just allocated its result: trim once no other query followed it.
    func queryAnswered() {
        let generation = armed.withLock { generation in
            generation &+= 1
            return generation
        }
        schedule { [self] in
            guard armed.withLock({ $0 == generation }) else { return }  // a later query re-armed it
            release()
        }
    }

    static func after(_ delay: DispatchTimeInterval) -> Scheduler {
        let queue = DispatchQueue(label: "qplay.idle-memory-release", qos: .utility)
        return { work in queue.asyncAfter(deadline: .now() + delay, execute: work) }
    }
}
