// qplay-bench: measures the library in-process, for scripts/bench-lib/library.
//
//   qplay-bench scan MUSIC_DIR DATABASE       full scan, then a no-change rescan
//   qplay-bench query DATABASE WORD...        open the index, title-contains latency
//   qplay-bench figures DATABASE WORD         figure predicates beside title contains WORD
//
// Each prints one JSON object on stdout. Run it from a release build.
import Foundation
import QPlayLibrary
import QPlayModel


func residentMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0
        return kilobytes / 1024
    }
    return 0
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

func printJSON(_ object: [String: Any]) {
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

func scan(music: String, database: String) async throws {
    let index = try LibraryIndex(databasePath: .init(database))
    // Every format's files, as qplayd scans them (a library of MP3s only has no other).
    let scanner = LibraryScanner(
        musicDirectory: .init(music), index: index, extensions: AudioFileFormat.allFileExtensions)
    let clock = ContinuousClock()
    var start = clock.now
    let full = try await scanner.scan()
    let fullSeconds = seconds(clock.now - start)
    let rssAfterScan = residentMegabytes()
    start = clock.now
    let again = try await scanner.scan()
    let rescanSeconds = seconds(clock.now - start)
    try index.checkpoint()
    let statistics = try index.statistics()
    printJSON([
        "full_seconds": fullSeconds, "added": full.added, "skipped": full.skipped,
        "problems": full.problems.count, "files_per_second": Double(full.added + full.skipped) / fullSeconds,
        "rescan_seconds": rescanSeconds, "rescan_changes": again.added + again.updated + again.removed,
        "tracks": statistics.tracks, "index_bytes": index.sizeOnDisk(), "rss_after_scan_mb": rssAfterScan,
    ])
}

/// `query`'s latency as the title rows take it: 3 warm-up searches, 50 `count`s, then
/// searches until 300 or 4 s (at least 20); p50/p99 of each, in milliseconds.
func timed(_ query: Query, on index: LibraryIndex) throws -> [String: Any] {
    let clock = ContinuousClock()
    var count = 0
    for _ in 0..<3 { count = try index.search(query).count }  // warm the page cache
    var countSamples: [Double] = []
    for _ in 0..<50 {
        let t0 = clock.now
        _ = try index.count(query)
        countSamples.append(seconds(clock.now - t0) * 1000)
    }
    countSamples.sort()
    var samples: [Double] = []
    let budget = clock.now.advanced(by: .seconds(4))
    while samples.count < 300 && (samples.count < 20 || clock.now < budget) {
        let t0 = clock.now
        count = try index.search(query).count
        samples.append(seconds(clock.now - t0) * 1000)
    }
    samples.sort()
    return [
        "count": count, "runs": samples.count,
        "p50_ms": percentile(samples, 50), "p99_ms": percentile(samples, 99),
        "count_only_p50_ms": percentile(countSamples, 50), "count_only_p99_ms": percentile(countSamples, 99),
    ]
}

func query(database: String, words: [String]) throws {
    let before = residentMegabytes()
    let clock = ContinuousClock()
    let start = clock.now
    let index = try LibraryIndex(databasePath: .init(database))
    let openSeconds = seconds(clock.now - start)
    var results: [[String: Any]] = []
    for word in words {
        var result = try timed(Query.titleContains(word), on: index)
        result["word"] = word
        result["rss_after_mb"] = residentMegabytes()
        results.append(result)
    }
    // Resident memory once the index is open and every query ran (result collections
    // freed): what keeping the index open costs a process.
    let after = residentMegabytes()
    printJSON([
        "open_seconds": openSeconds, "rss_before_mb": before, "rss_after_mb": after,
        "rss_added_mb": after - before, "queries": results,
    ])
}

/// SplitMix64: the same figures for the same seed on every machine.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Listening figures as a used library has them (seed 1, drawn in the order of `ids`):
/// every track added within the past 3 years; 15 % rated 1–5 stars (evenly); 30 % played
/// 1–50 times (evenly), last played within the past year, skipped 0–5 times; the rest
/// never played.
func realisticFigures(for ids: [TrackID], now: Double) -> [TrackID: TrackFigures] {
    var random = SeededGenerator(state: 1)
    let day = 86_400.0
    var figures: [TrackID: TrackFigures] = [:]
    figures.reserveCapacity(ids.count)
    for id in ids {
        var track = TrackFigures(added: now - Double.random(in: 0..<(3 * 365 * day), using: &random))
        if Double.random(in: 0..<1, using: &random) < 0.15 { track.rating = Int.random(in: 1...5, using: &random) }
        if Double.random(in: 0..<1, using: &random) < 0.30 {
            track.plays = Int.random(in: 1...50, using: &random)
            track.skips = Int.random(in: 0...5, using: &random)
            track.lastPlayed = now - Double.random(in: 0..<(365 * day), using: &random)
        }
        figures[id] = track
    }
    return figures
}

/// Figure predicates (`rating>=4`, `plays=0`) against title contains `word`, timed the
/// same way in the same process, on figures filled by `realisticFigures`; the first
/// row is the title query the others are compared with.
func figures(database: String, word: String) throws {
    let listening = ListeningFigures()
    let index = try LibraryIndex(databasePath: .init(database), listening: listening)
    // In path order: ids follow the scan's order, which its parallel reading varies;
    // paths do not, so every scan of a library gets the same figures on the same files.
    let ids = try index.search(.all).sorted { $0.path.string < $1.path.string }.map(\.id)
    let filled = realisticFigures(for: ids, now: Date().timeIntervalSince1970)
    listening.replace(with: filled)
    var rows: [[String: Any]] = []
    let queries: [(String, Query)] = [
        ("title contains '\(word)'", .titleContains(word)),
        ("rating>=4", Query([], figures: [FigurePredicate(.rating, .greaterOrEqual(4))])),
        ("plays=0", Query([], figures: [FigurePredicate(.plays, .equal(0))])),
        ("title contains '\(word)' and rating>=4",
         Query([Predicate(.title, .contains, word)], figures: [FigurePredicate(.rating, .greaterOrEqual(4))])),
        // No predicate: what handing out every track costs, beside which plays=0 (most
        // of the library) is read.
        ("every track (no predicate)", .all),
    ]
    for (label, query) in queries {
        var row = try timed(query, on: index)
        row["label"] = label
        rows.append(row)
    }
    printJSON([
        "tracks": ids.count, "rated": filled.values.count { $0.rating > 0 },
        "played": filled.values.count { $0.plays > 0 }, "queries": rows,
    ])
}

/// Where a no-change rescan spends its time: the walk alone.
func walk(music: String) {
    let clock = ContinuousClock()
    let start = clock.now
    var count = 0
    _ = MusicFileWalker(extensions: AudioFileFormat.mp3.fileExtensions).walk(.init(music)) { _ in count += 1 }
    printJSON(["walk_seconds": seconds(clock.now - start), "files": count])
}

/// Where the index's memory goes: resident size after each step of opening and querying.
func memory(database: String, words: [String]) throws {
    var steps: [[String: Any]] = [["step": "start", "rss_mb": residentMegabytes()]]
    let index = try LibraryIndex(databasePath: .init(database))
    steps.append(["step": "open", "rss_mb": residentMegabytes()])
    let clock = ContinuousClock()
    let start = clock.now
    _ = try index.count(.all)
    steps.append(["step": "table loaded", "rss_mb": residentMegabytes(), "ms": seconds(clock.now - start) * 1000])
    for word in words {
        var count = 0
        for _ in 0..<20 { count = try index.search(Query.titleContains(word)).count }
        steps.append(["step": "20 × '\(word)' (\(count))", "rss_mb": residentMegabytes()])
    }
    printJSON(["steps": steps])
}

let arguments = CommandLine.arguments
switch (arguments.count > 1 ? arguments[1] : "", arguments.count) {
case ("scan", 4):
    try await scan(music: arguments[2], database: arguments[3])
case ("walk", 3):
    walk(music: arguments[2])
case ("memory", 3...):
    try memory(database: arguments[2], words: Array(arguments[3...]))
case ("figures", 4):
    try figures(database: arguments[2], word: arguments[3])
case ("query", 4...):
    try query(database: arguments[2], words: Array(arguments[3...]))
default:
    FileHandle.standardError.write(
        Data("usage: qplay-bench scan MUSIC_DIR DATABASE | query DATABASE WORD... | figures DATABASE WORD\n".utf8))
    exit(2)
}
