import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// CPU time of every thread of a process, in nanoseconds (schedstat: exact, not ticks).
func cpuNanoseconds(of pid: Int32) -> UInt64 {
    let tasks = "/proc/\(pid)/task"
    let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
    return threads.reduce(0) { total, thread in
        guard let text = try? String(contentsOfFile: "\(tasks)/\(thread)/schedstat", encoding: .utf8),
            let first = text.split(separator: " ").first, let value = UInt64(first)
        else { return total }
        return total + value
    }
}

func sleep(seconds: Double) { usleep(UInt32(seconds * 1_000_000)) }

/// CPU % of one core while playing, and how much audio reached the FIFO meanwhile: a
/// player that refused or stalled on the file shows as played short of the window, so
/// its figure is not taken for the cost of playing.
struct CPUFigure {
    var percent: Double
    var playedSeconds: Double
    var windowSeconds: Double
    /// Each thread's part over the same window.
    var threads: ThreadBreakdown

    var playedThrough: Bool { playedSeconds >= 0.9 * windowSeconds }
}

/// Times from a command to the first sample of the new track, in milliseconds.
struct Latencies {
    var milliseconds: [Double] = []
    var missed = 0

    func percentile(_ p: Double) -> Double {
        guard !milliseconds.isEmpty else { return .nan }
        let sorted = milliseconds.sorted()
        return sorted[Int((p / 100 * Double(sorted.count - 1)).rounded())]
    }
}

/// The measurements of one run, each a function of one player, so that the two players
/// can take turns (a noisy moment on the shared machine then falls on both, not on
/// everything one of them does). Each leaves the player stopped.
struct Measurements {
    let quick: Bool
    var cpuWindow: Double { quick ? 8 : 30 }
    var nextPairs: Int { quick ? 8 : 30 }
    var playCount: Int { quick ? 6 : 20 }
    var underrunSeconds: Double { quick ? 10 : 60 }

    func cpu(_ player: PlayerUnderTest, queue: [String]) throws -> CPUFigure {
        try player.playQueue(queue)
        sleep(seconds: 2)
        let frames0 = player.reader.frames
        let threads0 = ThreadBreakdown.sample(player.pid)
        let cpu0 = cpuNanoseconds(of: player.pid)
        let wall0 = monotonicNanoseconds()
        sleep(seconds: cpuWindow)
        let cpu = cpuNanoseconds(of: player.pid) - cpu0
        let wall = monotonicNanoseconds() - wall0
        let threads = ThreadBreakdown(
            from: threads0, to: ThreadBreakdown.sample(player.pid), seconds: Double(wall) / 1e9)
        let played = Double(player.reader.frames - frames0) / Double(FIFOReader.rate)
        try player.stop()
        return CPUFigure(
            percent: Double(cpu) / Double(wall) * 100, playedSeconds: played, windowSeconds: Double(wall) / 1e9,
            threads: threads)
    }

    /// The audio thread's stages while playing `queue`, sampled by perf in a window of
    /// the same length (see `StageProfile`).
    func stages(_ player: PlayerUnderTest, queue: [String], scratch: String) throws -> StageProfile? {
        try player.playQueue(queue)
        sleep(seconds: 2)
        let profile = StageProfile.record(pid: player.pid, seconds: cpuWindow, scratch: scratch)
        try player.stop()
        return profile
    }

    /// `next` from a silent track to a loud one of `format`, `nextPairs` times.
    func next(_ player: PlayerUnderTest, format: BenchFormat) throws -> Latencies {
        var result = Latencies()
        try player.playQueue(Array(repeating: [format.silentFile, format.loudFile], count: nextPairs + 1).flatMap { $0 })
        sleep(seconds: 1.5)
        for _ in 0..<nextPairs {
            let start = monotonicNanoseconds()
            try player.next()  // silent → loud
            if let onset = player.reader.onset(after: start) {
                result.milliseconds.append(Double(onset - start) / 1e6)
            } else {
                result.missed += 1
            }
            sleep(seconds: 0.3)
            try player.next()  // loud → silent: not measured, lets the stream fall quiet
            sleep(seconds: 0.5)
        }
        try player.stop()
        return result
    }

    /// `play` of a loud track after `stop`, `playCount` times.
    func play(_ player: PlayerUnderTest, file: String) throws -> Latencies {
        var result = Latencies()
        try player.playQueue([file])
        sleep(seconds: 1)
        for _ in 0..<playCount {
            try player.stop()
            sleep(seconds: 0.6)
            let start = monotonicNanoseconds()
            try player.play(0)
            if let onset = player.reader.onset(after: start) {
                result.milliseconds.append(Double(onset - start) / 1e6)
            } else {
                result.missed += 1
            }
            sleep(seconds: 0.3)
        }
        try player.stop()
        return result
    }

    /// Underruns of a modelled 200 ms device while a busy loop holds the other core, and
    /// the player's threads that ran at a real-time priority meanwhile (they are not
    /// delayed by the load at all, so the row depends on them).
    func underruns(_ player: PlayerUnderTest, file: String) throws -> UnderrunFigure {
        let load = Process()
        load.executableURL = URL(fileURLWithPath: "/bin/sh")
        load.arguments = ["-c", "while :; do :; done"]
        try load.run()
        defer {
            load.terminate()
            load.waitUntilExit()
        }
        try player.playQueue([file])
        sleep(seconds: 1)
        player.reader.startDeviceModel()
        sleep(seconds: underrunSeconds)
        let model = player.reader.stopDeviceModel()
        let realtime = realtimeThreads(of: player.pid)
        try player.stop()
        return UnderrunFigure(
            count: model.underruns, seconds: Double(model.frames) / Double(FIFOReader.rate), realtimeThreads: realtime)
    }
}

struct UnderrunFigure {
    var count: Int
    var seconds: Double
    /// "name (SCHED_FIFO 40)" for each thread not under the normal time-sharing policy.
    var realtimeThreads: [String]
}

/// The threads of `pid` scheduled with a real-time policy, from /proc (policy and
/// rt_priority are fields 41 and 40 of a task's stat; the name may hold spaces and
/// parentheses, so fields are counted from the last ')').
func realtimeThreads(of pid: Int32) -> [String] {
    let tasks = "/proc/\(pid)/task"
    let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
    return threads.sorted().compactMap { thread in
        guard let stat = try? String(contentsOfFile: "\(tasks)/\(thread)/stat", encoding: .utf8),
            let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
        else { return nil }
        let name = stat[stat.index(after: open)..<close]
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state).
        guard fields.count > 38, let priority = Int(fields[37]), let policy = Int(fields[38]) else { return nil }
        let policies = [1: "SCHED_FIFO", 2: "SCHED_RR"]
        guard let policyName = policies[policy] else { return nil }
        return "\(name) (\(policyName) \(priority))"
    }
}
