import Testing

@testable import QPlayDaemon

/// The debounce rule with made-up instants (pure logic, no clock).
@Suite struct PositionDebouncerTests {
    let origin = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { origin + .milliseconds(milliseconds) }

    @Test func theFirstReportIsWrittenAtOnce() {
        var debouncer = PositionDebouncer(interval: .seconds(1))
        #expect(debouncer.offer(now: at(0)) == .writeNow)
    }

    @Test func reportsWithinTheIntervalShareOneTimerAtItsEnd() {
        var debouncer = PositionDebouncer(interval: .seconds(1))
        #expect(debouncer.offer(now: at(0)) == .writeNow)
        #expect(debouncer.offer(now: at(100)) == .armTimer(at(1000)))
        #expect(debouncer.offer(now: at(400)) == .waitForTimer)
        #expect(debouncer.offer(now: at(999)) == .waitForTimer)
        debouncer.timerFired(now: at(1003))
        // The timer's write counts as the last write.
        #expect(debouncer.offer(now: at(1500)) == .armTimer(at(2003)))
    }

    @Test func aReportAfterAQuietIntervalIsWrittenAtOnce() {
        var debouncer = PositionDebouncer(interval: .seconds(1))
        #expect(debouncer.offer(now: at(0)) == .writeNow)
        #expect(debouncer.offer(now: at(1000)) == .writeNow)
        #expect(debouncer.offer(now: at(5000)) == .writeNow)
    }

    @Test func aDirectWriteDisarmsTheTimer() {
        var debouncer = PositionDebouncer(interval: .seconds(1))
        #expect(debouncer.offer(now: at(0)) == .writeNow)
        #expect(debouncer.offer(now: at(10)) == .armTimer(at(1000)))
        debouncer.wroteDirectly(now: at(20))
        #expect(debouncer.timerDeadline == nil)
        #expect(debouncer.offer(now: at(30)) == .armTimer(at(1020)))
    }

    /// Whatever the report pattern, writes are at least one interval apart and no report
    /// waits longer than one interval.
    @Test func writesAreSpacedAndNothingWaitsLongerThanTheInterval() {
        var debouncer = PositionDebouncer(interval: .milliseconds(1000))
        var writes: [Int] = []
        var timer: Int?
        var oldestUnwritten: Int?
        var longestWait = 0
        var now = 0
        var seed: UInt64 = 7
        while now < 60_000 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let next = now + Int(seed >> 33) % 700
            if let due = timer, due <= next {
                debouncer.timerFired(now: at(due))
                writes.append(due)
                if let oldest = oldestUnwritten { longestWait = max(longestWait, due - oldest) }
                oldestUnwritten = nil
                timer = nil
            }
            now = next
            switch debouncer.offer(now: at(now)) {
            case .writeNow: writes.append(now)
            case .armTimer(let deadline):
                timer = Int((deadline - origin) / .milliseconds(1))
                oldestUnwritten = now
            case .waitForTimer: break
            }
        }
        #expect(writes.count > 30)
        #expect(zip(writes, writes.dropFirst()).allSatisfy { $1 - $0 >= 1000 })
        #expect(longestWait <= 1000)
    }
}
