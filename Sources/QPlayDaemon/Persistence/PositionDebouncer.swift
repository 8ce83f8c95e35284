/// Decides when a reported playback position is written: at once if the last write is at
/// least `interval` old (leading edge), otherwise once at `last write + interval`
/// (trailing edge, one timer however many reports arrive). So writes happen at most
/// once per interval and the stored position is never more than `interval` stale while
/// reports keep coming. Pure logic: the caller supplies the time.
struct PositionDebouncer: Sendable {
    enum Decision: Equatable {
        case writeNow
        /// Keep the value and arm a timer for this instant.
        case armTimer(ContinuousClock.Instant)
        /// A timer is armed already; it will write the latest value.
        case waitForTimer
    }

    let interval: Duration
    private(set) var lastWrite: ContinuousClock.Instant?
    private(set) var timerDeadline: ContinuousClock.Instant?

    init(interval: Duration) {
        self.interval = interval
    }

    mutating func offer(now: ContinuousClock.Instant) -> Decision {
        if timerDeadline != nil { return .waitForTimer }
        if let lastWrite, now < lastWrite + interval {
            let deadline = lastWrite + interval
            timerDeadline = deadline
            return .armTimer(deadline)
        }
        lastWrite = now
        return .writeNow
    }

    /// The armed timer fired: the deferred value is being written now.
    mutating func timerFired(now: ContinuousClock.Instant) {
        timerDeadline = nil
        lastWrite = now
    }

    /// A position was written outside the debounce (flush, immediate save): a pending
    /// timer has nothing left to write.
    mutating func wroteDirectly(now: ContinuousClock.Instant) {
        timerDeadline = nil
        lastWrite = now
    }
}
