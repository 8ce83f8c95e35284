import Synchronization
import Testing

@testable import QPlayDaemon

@Suite("Idle memory release")
struct IdleMemoryReleaseTests {
    @Test func aBurstOfQueriesReleasesOnceAfterTheLast() async throws {
        let releases = Counter()
        let idle = IdleMemoryRelease(delay: .milliseconds(500)) { releases.add() }
        for _ in 0..<5 {
            idle.queryAnswered()
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(releases.value == 0)  // re-armed by each query: nothing yet
        try await releases.waitFor(1)
        try await Task.sleep(for: .milliseconds(700))
        #expect(releases.value == 1)

        idle.queryAnswered()
        try await releases.waitFor(2)
    }
}

private final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }

    /// Waits (up to 10 s, the machine may be loaded) until the count reaches `target`.
    func waitFor(_ target: Int) async throws {
        for _ in 0..<1000 where value < target {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(value == target)
    }
}
