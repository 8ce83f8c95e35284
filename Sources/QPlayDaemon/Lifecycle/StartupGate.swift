import Synchronization

/// A one-way door between services of the daemon's group: the core waits at it until
/// qplay's socket listens — or could not, or the group shuts down first. The first
/// `open` decides what every wait returns.
final class StartupGate: Sendable {
    private struct State {
        var outcome: Bool?
        var waiting: [CheckedContinuation<Bool, Never>] = []
    }

    private let state = Mutex(State())

    /// `succeeded`: whether what the gate waits for happened.
    func open(succeeded: Bool) {
        let (outcome, waiting) = state.withLock { state in
            if state.outcome == nil { state.outcome = succeeded }
            defer { state.waiting = [] }
            return (state.outcome!, state.waiting)
        }
        for continuation in waiting { continuation.resume(returning: outcome) }
    }

    /// Whether it succeeded, once the gate is open.
    func wait() async -> Bool {
        await withCheckedContinuation { continuation in
            let outcome = state.withLock { state in
                if state.outcome == nil { state.waiting.append(continuation) }
                return state.outcome
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
    }
}
