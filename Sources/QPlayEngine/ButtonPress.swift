import QPlayModel

/// A next/previous button that is down.
struct ButtonPress: Sendable, Equatable {
    enum Phase: Sendable, Equatable {
        /// Before the tap threshold: releasing now is a tap.
        case pending
        /// Past the threshold, the audio side is scanning.
        case scanning
        /// Past the threshold without a scan: nothing was loaded, or a track change by
        /// another command ended the scan. Releasing does nothing more.
        case holding
    }

    let button: Button
    let pressedAt: Duration
    var phase: Phase

    var direction: ScanDirection {
        button == .next ? .forward : .backward
    }
}

/// A press that ended itself at the maximum hold; the late `release` still gets its answer.
struct AutoReleasedPress: Sendable, Equatable {
    let button: Button
    let heldMilliseconds: Int
}

extension Duration {
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
