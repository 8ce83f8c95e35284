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
    /// Frames buffered when `pause` froze the clock; nil while running.
    private var frozenFrames: Int?

    public init(sampleRate: Int, lead: Duration = .milliseconds(200)) {
        self.sampleRate = sampleRate
        self.lead = lead
    }

    /// Records `count` frames handed out and sleeps while more than `lead` is buffered.
    /// A writer that waits `waitTime(forFrames:)` first never sleeps here.
    public mutating func didWrite(frames count: Int) {
        if frozenFrames != nil { resume() }
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

    /// How long until `count` more frames fit within `lead`: what a writer that wants
    /// to stay interruptible waits (on its own terms) before writing.
    public func waitTime(forFrames count: Int) -> Duration {
        if frozenFrames != nil { return .zero }
        let ahead = bufferedTime(at: .now) + Self.duration(frames: count, rate: sampleRate)
        return ahead > lead ? ahead - lead : .zero
    }

    /// Frames written but not yet due by the clock: what a device would report as delay.
    public var delayFrames: Int {
        if let frozenFrames { return frozenFrames }
        let ahead = bufferedTime(at: .now)
        let seconds = Double(ahead.components.seconds) + Double(ahead.components.attoseconds) * 1e-18
        return max(0, Int((seconds * Double(sampleRate)).rounded()))
    }

    /// Stops the clock: what is buffered stays buffered (a paused device keeps its
    /// samples), so a later `resume` neither loses nor repeats any.
    public mutating func pause() {
        guard frozenFrames == nil else { return }
        frozenFrames = delayFrames
        start = nil
        frames = 0
    }

    /// Starts the clock again with the frames frozen by `pause` still to be heard.
    public mutating func resume() {
        guard let frozen = frozenFrames else { return }
        frozenFrames = nil
        if frozen > 0 {
            start = .now
            frames = frozen
        }
    }

    /// Sleeps until everything written is due.
    public mutating func drain() {
        if frozenFrames != nil { resume() }
        let ahead = bufferedTime(at: .now)
        if ahead > .zero { Self.sleep(ahead) }
        reset()
    }

    /// Forgets the stream, as after a pause or a dropped buffer.
    public mutating func reset() {
        start = nil
        frames = 0
        frozenFrames = nil
    }

    private func bufferedTime(at now: ContinuousClock.Instant) -> Duration {
        guard let start else { return .zero }
        let written = Self.duration(frames: frames, rate: sampleRate)
        let elapsed = now - start
        if elapsed > written {
            return .zero
        }
        return written - elapsed
    }

    private static func duration(frames: Int, rate: Int) -> Duration {
        .nanoseconds(Int64(frames) * 1_000_000_000 / Int64(rate))
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
