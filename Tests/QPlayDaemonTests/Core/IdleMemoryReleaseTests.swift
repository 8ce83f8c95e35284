import Synchronization
import Testing

@testable import QPlayDaemon

@Suite("Idle memory release")
struct IdleMemoryReleaseTests {
    @Test func aBurstOfQueriesReleasesOnceAfterTheLast() {
        let timers = Timers()
        let releases = Mutex(0)
        let idle = IdleMemoryRelease(schedule: timers.add) { releases.withLock { $0 += 1 } }

        for _ in 0..<5 { idle.queryAnswered() }
        #expect(releases.withLock { $0 } == 0)  // nothing before the delay has passed
        timers.fire()
        #expect(releases.withLock { $0 } == 1)  // the last query's timer, not the four it re-armed

        idle.queryAnswered()
        timers.fire()
        #expect(releases.withLock { $0 } == 2)
    }

    @Test func aQueryDuringTheDelayPostponesTheRelease() {
        let timers = Timers()
        let releases = Mutex(0)
        let idle = IdleMemoryRelease(schedule: timers.add) { releases.withLock { $0 += 1 } }

        idle.queryAnswered()
        idle.queryAnswered()
        timers.fireFirst()  // the first query's delay ends while the second is pending
        #expect(releases.withLock { $0 } == 0)
        timers.fire()
        #expect(releases.withLock { $0 } == 1)
    }
}

/// Scheduled closures, run when the test says the delay has passed.
private final class Timers: Sendable {
    private let pending = Mutex<[@Sendable () -> Void]>([])

    func add(_ work: @escaping @Sendable () -> Void) {
        pending.withLock { $0.append(work) }
    }

    func fire() {
        for work in pending.withLock({ list in defer { list = [] }; return list }) { work() }
    }

    func fireFirst() {
        pending.withLock { $0.removeFirst() }()
    }
}
