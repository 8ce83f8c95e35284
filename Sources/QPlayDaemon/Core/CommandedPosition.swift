import QPlayAudio

/// A position the audio thread was told to take (`play` from a point, `seek`) and has
/// perhaps not taken yet: it moves on in real time while playing, and counts as reached
/// once the snapshot shows the new request playing (`play`) or a position near the
/// expected one (`seek`). A command the audio thread never carries out (a file that
/// fails to open) is given up after `patience`.
struct CommandedPosition: Sendable {
    /// The request the command was for: a `play`'s own, a `seek`'s the one playing.
    var token: UInt64?
    /// A `seek`: the snapshot must also show a position near the expected one.
    var seeking: Bool
    var seconds: Double
    var at: ContinuousClock.Instant
    var moving: Bool

    static let tolerance = 0.35
    static let patience: Duration = .seconds(2)

    func expected(at now: ContinuousClock.Instant) -> Double {
        guard moving else { return seconds }
        let elapsed = now - at
        return seconds + Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    func reached(by snapshot: AudioSnapshot, now: ContinuousClock.Instant) -> Bool {
        if now - at > Self.patience { return true }
        if let token, snapshot.token != token { return false }
        return !seeking || abs(snapshot.position - expected(at: now)) < Self.tolerance
    }

    func paused(at now: ContinuousClock.Instant) -> CommandedPosition {
        CommandedPosition(token: token, seeking: seeking, seconds: expected(at: now), at: now, moving: false)
    }

    func resumed(at now: ContinuousClock.Instant) -> CommandedPosition {
        CommandedPosition(token: token, seeking: seeking, seconds: seconds, at: now, moving: true)
    }
}
