#if canImport(Glibc)
import Glibc
#endif

/// Holds a device-less output to real time: the `null`, `file:` outputs and ALSA's
/// `file`/`null` plugins accept audio as fast as it comes, but positions, tap/hold and
/// scan rates only mean something when playback takes as long as the music. The pacer
/// lets the writer run at most `lead` ahead of a monotonic clock, like a device buffer.
public struct RealTimePacer: Sendable {
    public let sampleRate: Int
    public let lead: Duration
    private var start: ContinuousClock.Instant?
    private var frames = 0

    public init(sampleRate: Int, lead: Duration = .milliseconds(100)) {
        self.sampleRate = sampleRate
        self.lead = lead
    }

    /// Records `count` frames handed out and sleeps while more than `lead` is buffered.
    public mutating func didWrite(frames count: Int) {
        let now = ContinuousClock.now
        // Idle, or fell behind the clock (a stall): time starts again from here, so the
        // writer neither bursts to catch up nor reports a negative delay.
        if start == nil || bufferedTime(at: now) == .zero {
            start = now
            frames = 0
        }
        frames += count
        let ahead = bufferedTime(at: now)
        if ahead > lead {
            Self.sleep(ahead - lead)
        }
    }

    /// Frames written but not yet due by the clock: what a device would report as delay.
    public var delayFrames: Int {
        let ahead = bufferedTime(at: .now)
        let seconds = Double(ahead.components.seconds) + Double(ahead.components.attoseconds) * 1e-18
        return max(0, Int((seconds * Double(sampleRate)).rounded()))
    }

    /// Sleeps until everything written is due.
    public mutating func drain() {
        let ahead = bufferedTime(at: .now)
        if ahead > .zero { Self.sleep(ahead) }
        reset()
    }

    /// Forgets the stream, as after a pause or a dropped buffer.
    public mutating func reset() {
        start = nil
        frames = 0
    }

    private func bufferedTime(at now: ContinuousClock.Instant) -> Duration {
        guard let start else { return .zero }
        let written = Duration.nanoseconds(Int64(frames) * 1_000_000_000 / Int64(sampleRate))
        let elapsed = now - start
        if elapsed > written {
            return .zero
        }
        return written - elapsed
    }

    private static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR {
            request = remaining
        }
    }
}
