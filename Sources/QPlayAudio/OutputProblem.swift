/// An output that failed or stalled: the message for status and events, and when to
/// try a failed one again (backoff doubling from `retryFirst` to `retryMax`). A stalled
/// output stays open and is not retried: it recovers by itself when it takes samples.
struct OutputProblem {
    private(set) var message: String?
    /// The message is a stall's (the output is open and holds what it was given).
    private(set) var isStall = false
    private var reported: String?
    private var retryAt: ContinuousClock.Instant?
    private var backoff: Duration = .zero

    mutating func failed(_ message: String, tuning: PlaybackTuning) {
        self.message = message
        isStall = false
        backoff = backoff == .zero ? tuning.retryFirst : min(backoff * 2, tuning.retryMax)
        retryAt = .now + backoff
    }

    /// The output stopped taking samples; a failure already shown is not replaced.
    mutating func stalled(_ message: String) {
        guard self.message == nil else { return }
        self.message = message
        isStall = true
    }

    /// The output took samples again: a stall is over (reported by `newMessage`).
    mutating func flowing() {
        guard isStall else { return }
        message = nil
        isStall = false
    }

    /// What status shows for the output.
    var state: OutputCondition.State {
        message == nil ? .ok : isStall ? .stalled : .failed
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
            isStall = false
            reported = nil
            retryAt = nil
            backoff = .zero
        }
        return reported != nil
    }
}
