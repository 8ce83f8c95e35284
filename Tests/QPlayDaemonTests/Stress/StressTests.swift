import Foundation
import QPlayTestSupport
import Testing

/// The sweep's settings, from the environment so that `scripts/soak` and a replay use the
/// same test: `QPLAY_STRESS_SECONDS` (wall time for the whole sweep, default 75: seeds
/// 1 to 3 in CI, the second beside two busy loops; `scripts/soak` for longer),
/// `QPLAY_STRESS_SEED` (the first seed, default 1), `QPLAY_STRESS_SEEDS` (at most this
/// many seeds; 1 replays one), `QPLAY_STRESS_STEPS` (steps per seed, default 60),
/// `QPLAY_STRESS_FAULTS=0` (commands only, no damaged files), `QPLAY_STRESS_KEEP=1`
/// (keep the capture, log and music folder of a failed seed).
enum StressConfiguration {
    static let environment = ProcessInfo.processInfo.environment

    static let seconds = environment["QPLAY_STRESS_SECONDS"].flatMap(Double.init) ?? 75
    static let firstSeed = environment["QPLAY_STRESS_SEED"].flatMap { UInt64($0) } ?? 1
    static let maximumSeeds = environment["QPLAY_STRESS_SEEDS"].flatMap { Int($0) } ?? .max
    static let steps = environment["QPLAY_STRESS_STEPS"].flatMap { Int($0) } ?? 60
    static let faults = environment["QPLAY_STRESS_FAULTS"] != "0"
    static let keepFailed = environment["QPLAY_STRESS_KEEP"] == "1"

    /// Room for the last seed started just before the time is up, and for its hangs.
    static var timeLimitMinutes: Int { Int((seconds / 60).rounded(.up)) + 10 }

    /// Every other seed runs beside two busy loops.
    static func hogs(_ seed: UInt64) -> Bool { seed % 2 == 0 }
}

/// The seeded, model-based stress test against the real daemon (docs/arch/e2e.md,
/// "Stress test"): seeds one after the other until the sweep's time is spent.
@Suite("End to end: stress", .serialized, .tags(.heavy), .group(.heavy))
struct StressTests {
    @Test(.timeLimit(.minutes(StressConfiguration.timeLimitMinutes)))
    func randomCommandsAndDamagedFilesKeepStatusTrueToTheOutput() throws {
        // Made once for the sweep; every seed copies them into a music folder of its own.
        let source = TemporaryDirectory("qplay-stress-fixtures")
        defer { source.remove() }
        _ = try ToneFixtures.generate(in: source)
        let started = monotonicSeconds()
        var results: [SeedResult] = []
        var seed = StressConfiguration.firstSeed
        var fits = true
        repeat {
            let options = StressOptions(
                seed: seed, steps: StressConfiguration.steps, hogs: StressConfiguration.hogs(seed),
                faults: StressConfiguration.faults, keepFailed: StressConfiguration.keepFailed)
            let result = StressRun(options: options).run(fixtureSource: source.path.string)
            results.append(result)
            print(Self.line(for: result))
            if let report = result.report { Issue.record(Comment(rawValue: report)) }
            seed += 1
            // A seed is started only when one of average length still fits the time.
            let elapsed = monotonicSeconds() - started
            fits = elapsed + elapsed / Double(results.count) <= StressConfiguration.seconds
        } while results.count < StressConfiguration.maximumSeeds && fits
        print(Self.summary(results))
    }

    static func line(for result: SeedResult) -> String {
        let outcome = result.failures.isEmpty ? "ok" : "FAILED (\(result.failures.map(\.kind).joined(separator: ", ")))"
        return "stress seed \(result.seed)\(result.hogs ? " +hogs" : ""): \(result.steps) steps in \(String(format: "%.0f", result.seconds)) s, \(result.faults) faults, \(result.restores) restores, \(result.errorEvents) error events (\(result.obligations) owed); checked \(result.statusChecks) statuses, \(result.queueChecks) queues, \(result.changes) track changes (\(result.predicted) predicted), \(result.tonesHeard) tones heard — \(outcome)"
    }

    /// The closing line CI's log carries and `scripts/soak` reads.
    static func summary(_ results: [SeedResult]) -> String {
        let failed = results.filter { !$0.failures.isEmpty }
        let seeds = results.map(\.seed)
        let failures = failed.map { "\($0.seed) (\($0.failures.map(\.kind).joined(separator: ", ")))" }
        return "stress summary: seeds \(results.count) (\(seeds.first ?? 0)…\(seeds.last ?? 0)), steps \(results.reduce(0) { $0 + $1.steps }), faults \(results.reduce(0) { $0 + $1.faults }), restores \(results.reduce(0) { $0 + $1.restores }), skips seen \(results.reduce(0) { $0 + $1.errorEvents }), failures \(failed.count)\(failures.isEmpty ? "" : ": seeds " + failures.joined(separator: ", "))"
    }
}
