#if canImport(Glibc)
import Glibc
#endif

/// `idle` wake-up latency (MPD's protocol): one connection waits in `idle player`, another
/// sends `next`; a sample is the time from sending `next` until the waiting connection has
/// its whole `changed: player` answer. The other connection then sends `pause 1`, so the
/// daemon stays quiet between samples (MPD's `next` on a paused player plays, and a
/// playing queue of short tracks would change song on its own).
///
/// Events left over from the previous sample (the pause, a song change) wake `idle` at
/// once: such an answer is read and dropped, and `idle` sent again until it stays
/// unanswered for a quiet spell; only then is `next` sent.
func idleWakeUps(address: String, samples count: Int) throws {
    guard let waiter = try Connection(address: address, dialect: .mpd),
        let actor = try Connection(address: address, dialect: .mpd)
    else { throw BenchFailure("nothing listens on \(address)") }
    let idle = Request.raw("idle player")
    let quietMilliseconds: Int32 = 30
    var samples: [Double] = []
    var stale = 0
    var missed = 0
    for round in 0..<(count + 5) {
        try actor.request(.raw("pause 1"))
        while true {
            try waiter.begin(idle)
            guard try waiter.hasInput(withinMilliseconds: quietMilliseconds) else { break }
            _ = try waiter.answer(to: idle, counting: "changed: ")
            stale += 1
        }
        let start = monotonicNanoseconds()
        try actor.begin(.raw("next"))
        let changed = try waiter.answer(to: idle, counting: "changed: player")
        let woken = waiter.answeredAt
        _ = try actor.answer(to: .raw("next"))
        guard changed == 1 else {
            missed += 1
            continue
        }
        // The first rounds warm both sides up.
        if round >= 5 { samples.append(Double(woken - start) / 1000) }
    }
    try actor.request(.raw("pause 1"))
    printSummary(samples, unit: "us", extra: [("stale_wakeups", "\(stale)"), ("missed", "\(missed)")])
}
