import Foundation

/// Per thread of a process over a window: CPU (schedstat, exact) and how often it went
/// to sleep of its own accord (voluntary context switches: each is a later wake-up),
/// from /proc. What the CPU of a player goes to when the total is above the decode floor.
struct ThreadBreakdown {
    struct Thread {
        var name: String
        var percent: Double
        var wakeUpsPerSecond: Double
        /// Preemptions per second: the machine's load, not the player's doing.
        var preemptedPerSecond: Double
    }

    var threads: [Thread]

    /// Threads that used no CPU and never woke are left out; the busiest first.
    init(from before: [Int: Sample], to after: [Int: Sample], seconds: Double) {
        threads = after.compactMap { id, end in
            let start = before[id] ?? Sample(name: end.name, nanoseconds: 0, voluntary: 0, involuntary: 0)
            let cpu = Double(end.nanoseconds - min(end.nanoseconds, start.nanoseconds))
            let wakeUps = Double(end.voluntary - min(end.voluntary, start.voluntary))
            let preempted = Double(end.involuntary - min(end.involuntary, start.involuntary))
            guard cpu > 0 || wakeUps > 0 else { return nil }
            return Thread(
                name: end.name, percent: cpu / (seconds * 1e9) * 100, wakeUpsPerSecond: wakeUps / seconds,
                preemptedPerSecond: preempted / seconds)
        }.sorted { $0.percent > $1.percent }
    }

    /// "qplay-audio 0.21 % 10.1 w/s, …": threads under 0.005 % and 0.5 wake-ups a
    /// second are summed as "others".
    var summary: String {
        var parts: [String] = []
        var rest = (count: 0, percent: 0.0, wakeUps: 0.0)
        for thread in threads {
            if thread.percent < 0.005 && thread.wakeUpsPerSecond < 0.5 {
                rest = (rest.count + 1, rest.percent + thread.percent, rest.wakeUps + thread.wakeUpsPerSecond)
            } else {
                parts.append(
                    "\(thread.name) \(ResultTable.fixed(thread.percent, 3)) % "
                        + "\(ResultTable.fixed(thread.wakeUpsPerSecond, 1)) w/s")
            }
        }
        if rest.count > 0 {
            parts.append("\(rest.count) others \(ResultTable.fixed(rest.percent, 3)) % \(ResultTable.fixed(rest.wakeUps, 1)) w/s")
        }
        return parts.joined(separator: "; ")
    }

    var wakeUpsPerSecond: Double { threads.reduce(0) { $0 + $1.wakeUpsPerSecond } }
    var preemptedPerSecond: Double { threads.reduce(0) { $0 + $1.preemptedPerSecond } }

    struct Sample {
        var name: String
        var nanoseconds: UInt64
        var voluntary: UInt64
        var involuntary: UInt64
    }

    /// Every thread of `pid` now, by thread id.
    static func sample(_ pid: Int32) -> [Int: Sample] {
        let tasks = "/proc/\(pid)/task"
        var samples: [Int: Sample] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            guard let id = Int(entry),
                let schedstat = try? String(contentsOfFile: "\(tasks)/\(entry)/schedstat", encoding: .utf8),
                let status = try? String(contentsOfFile: "\(tasks)/\(entry)/status", encoding: .utf8),
                let nanoseconds = schedstat.split(separator: " ").first.flatMap({ UInt64($0) })
            else { continue }
            var fields: [Substring: Substring] = [:]
            for line in status.split(separator: "\n") {
                let pair = line.split(separator: ":", maxSplits: 1)
                if pair.count == 2 { fields[pair[0]] = pair[1].drop { $0 == " " || $0 == "\t" } }
            }
            samples[id] = Sample(
                name: String(fields["Name"] ?? "?"), nanoseconds: nanoseconds,
                voluntary: fields["voluntary_ctxt_switches"].flatMap { UInt64($0) } ?? 0,
                involuntary: fields["nonvoluntary_ctxt_switches"].flatMap { UInt64($0) } ?? 0)
        }
        return samples
    }
}
