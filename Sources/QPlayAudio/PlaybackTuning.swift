/// The audio thread's sizes and times. The defaults suit both a sound card and the
/// self-paced outputs; tests and benchmarks may shrink them.
public struct PlaybackTuning: Sendable {
    /// Audio handed to the output per write: about one ALSA period, so a command waits
    /// at most this long (the wait is interruptible anyway).
    public var chunk: Duration = .milliseconds(20)
    /// When the output is full, the thread sleeps until this much fits, then writes it
    /// chunk after chunk: fewer wake-ups (CPU) at no cost in latency, since a command
    /// ends the sleep at once. Must stay well below the output's buffer (200 ms ALSA,
    /// 100 ms for the self-paced outputs).
    public var writeBatch: Duration = .milliseconds(100)
    /// Decoded audio kept ready beyond what the output holds; the successor's first
    /// chunks are decoded into it before the current item's last chunk is written.
    public var decodeAhead: Duration = .milliseconds(200)
    /// Scanning plays this much, then jumps (by `rate − 1` times as much).
    public var scanFragment: Duration = .milliseconds(100)
    /// A decoder not opened by then (a read that does not return: a hung network
    /// mount, a file swapped for something that blocks) fails its item, so playback
    /// moves on; the decoders' own budgets fail junk far sooner.
    public var openLimit: Duration = .seconds(3)
    /// An idle output stays open this long, so the next item starts without reopening.
    public var idleClose: Duration = .seconds(2)
    /// Output retries: the first after `retryFirst`, doubling up to `retryMax`.
    public var retryFirst: Duration = .milliseconds(250)
    public var retryMax: Duration = .seconds(5)
    /// An open output whose delay stays put this long while audio waits for it has
    /// stopped taking samples (a FIFO whose reader holds it open without reading): it
    /// is reported stalled, well within a second, and clears when it takes them again.
    public var stallLimit: Duration = .milliseconds(500)
    /// What an output after the first may fall behind it before the surplus is dropped
    /// (its queue; see `FollowingOutput`).
    public var followerQueue: Duration = .seconds(1)
    /// Seconds of output one level reading covers (when metering is on): about one
    /// `writeBatch`, so about ten readings a second.
    public var levelWindow: Double = 0.1

    public init() {}

    func frames(_ duration: Duration, rate: Int) -> Int {
        max(1, Int(duration.nanoseconds * Int64(rate) / 1_000_000_000))
    }
}
