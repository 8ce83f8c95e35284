import Dispatch
import Synchronization

/// What the audio thread's reads of one stream tell its network side: plain atomics,
/// so a read never waits on a lock the network side holds.
final class StreamReadSignals: Sendable {
    /// A decoder not read for this long was paused (or is a successor waiting for its
    /// turn): what it has buffered is stale, and the next read rejoins the stream live.
    static let pauseGap: UInt64 = 2_000_000_000

    /// When the decoder last read (or the opener waited for bytes), uptime nanoseconds.
    private let lastRead = Atomic<UInt64>(DispatchTime.now().uptimeNanoseconds)
    /// The last read found nothing: the decoder is playing silence.
    let starved = Atomic<Bool>(false)
    /// The decoder reads again after a pause: the stale buffer goes and the stream is
    /// joined anew. Reads find nothing until the network side has done so.
    let rejoin = Atomic<Bool>(false)

    /// A read now; true when it ends a pause (the first read after `pauseGap`).
    func reading() -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        let last = lastRead.exchange(now, ordering: .relaxed)
        return now &- last > Self.pauseGap
    }

    /// The opener waited for bytes: as good as a read, without ending a pause.
    func touch() {
        lastRead.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
    }

    /// Nobody has read for longer than `pauseGap`: the player is paused, or this
    /// stream waits as the successor.
    var idle: Bool {
        DispatchTime.now().uptimeNanoseconds &- lastRead.load(ordering: .relaxed) > Self.pauseGap
    }

    /// Sound is missing for want of bytes, while the player reads.
    var buffering: Bool { starved.load(ordering: .relaxed) && !idle }
}
