/// An output that failed: the message for status and events, and when to try again
/// (backoff doubling from `retryFirst` to `retryMax`).
struct OutputProblem {
    private(set) var message: String?
    private var reported: String?
    private var retryAt: ContinuousClock.Instant?
    private var backoff: Duration = .zero

    mutating func failed(_ message: String, tuning: PlaybackTuning) {
        self.message = message
        backoff = backoff == .zero ? tuning.retryFirst : min(backoff * 2, tuning.retryMax)
        retryAt = .now + backoff
    }

    /// The message to report when it differs from the one reported last (nil: nothing
    /// new to say).
    mutating func newMessage() -> String?? {
        guard message != reported else { return nil }
        reported = message
        return .some(message)
    }

    /// How long to wait before the next attempt; nil when nothing failed.
    func waitBeforeRetry() -> Duration? {
        retryAt.map { max(.zero, $0 - .now) }
    }

    /// The output works again: true when a failure had been reported.
    mutating func recovered() -> Bool {
        defer {
            message = nil
            reported = nil
            retryAt = nil
            backoff = .zero
        }
        return reported != nil
    }
}
