import Foundation
import Logging
import QPlayLibrary
import Synchronization
import SystemPackage

/// Runs library scans in the background, one at a time, reporting progress as `scan`
/// core events (the last one of a scan says whether the library changed). Queries do not come through here: the index answers them from any thread
/// while a scan commits in batches.
actor LibraryService {
    nonisolated let index: LibraryIndex
    nonisolated let musicDirectory: FilePath
    nonisolated let scanner: LibraryScanner
    private let events: EventPublisher
    nonisolated let log: Logger
    /// Disks the watcher saw unmounted below the music directory: scans keep their tracks.
    nonisolated let unmounted = UnmountedFolders()
    /// Pictures of tracks, read on request (never by a scan) for `art`, MPD and MPRIS.
    nonisolated let artwork = ArtworkLookup()
    /// Embedded pictures as files (MPRIS `mpris:artUrl`); nil without a cache folder.
    nonisolated let artCache = ArtCache.defaultDirectory(environment: ProcessInfo.processInfo.environment).map {
        ArtCache(directory: $0)
    }
    /// The scan running or queued last; a new update waits for it before it starts.
    private var latest: Task<ScanSummary, any Error>?

    init(index: LibraryIndex, musicDirectory: FilePath, extensions: Set<String>, events: EventPublisher, log: Logger) {
        self.index = index
        self.musicDirectory = musicDirectory
        scanner = LibraryScanner(musicDirectory: musicDirectory, index: index, extensions: extensions)
        self.events = events
        self.log = log
    }

    /// Refuses a scan of `subpath` that names nothing in the music directory or the
    /// index (`LibraryScanError.subpathNotFound`), before it is queued.
    nonisolated func checkScanTarget(_ subpath: FilePath) throws {
        try scanner.checkSubpath(subpath)
    }

    /// Builds the index's search table on a thread of its own (TagLib-free but ~350 ms
    /// of CPU at 100,000 tracks: not for the cooperative pool), so the first search
    /// after start-up or after a scan does not pay for it. Returns at once; queries
    /// answer from SQL until the table is in. A no-op when the table is current.
    nonisolated func prepareSearchTable() {
        let index = self.index
        let log = self.log
        let thread = Thread {
            let clock = ContinuousClock()
            let start = clock.now
            do {
                if let count = try index.prepareSearchTable() {
                    let elapsed = clock.now - start
                    let milliseconds = Double(elapsed.components.seconds) * 1000
                        + Double(elapsed.components.attoseconds) * 1e-15
                    log.info("search table ready: \(count) tracks in \(Int(milliseconds.rounded())) ms")
                }
            } catch {
                log.error("could not build the search table (searches answer from SQL): \(error)")
            }
        }
        thread.name = "qplay.search-table"
        thread.start()
    }

    /// Starts a scan of the whole directory or of `subpath` (relative to it) after any
    /// scan already under way, and returns it.
    func startScan(subpath: FilePath?) -> Task<ScanSummary, any Error> {
        let previous = latest
        let scanner = self.scanner
        let events = self.events
        let log = self.log
        let throttle = ProgressThrottle()
        let library = self
        let unmounted = self.unmounted
        let task = Task<ScanSummary, any Error> {
            _ = try? await previous?.value
            log.info("scanning \(subpath.map { scanner.musicDirectory.pushing($0) } ?? scanner.musicDirectory)")
            do {
                let last = Mutex<ScanProgress?>(nil)
                let keeping = unmounted.current
                if !keeping.isEmpty {
                    log.info("keeping the tracks below \(keeping.map(\.string).sorted().joined(separator: ", ")): unmounted")
                }
                let summary = try await scanner.scan(subpath: subpath, keeping: keeping) { progress in
                    // The end is told once the summary says what changed (below).
                    if progress.done {
                        last.withLock { $0 = progress }
                    } else if throttle.shouldReport(progress) {
                        events.publish(
                            .scan(ScanProgressSummary(
                                seen: progress.seen, total: progress.total, rate: progress.rate, done: false)))
                    }
                }
                let end = last.withLock { $0 }
                events.publish(
                    .scan(ScanProgressSummary(
                        seen: end?.seen ?? 0, total: end?.total, rate: end?.rate ?? 0, done: true,
                        libraryChanged: summary.added + summary.updated + summary.removed > 0)))
                for problem in summary.problems {
                    log.warning("\(problem.skipped ? "skipped" : "indexed with a problem") \(problem.path): \(problem.reason)")
                }
                // Files skipped and remembered by an earlier scan are counted, not listed again.
                let before = summary.skippedBefore > 0 ? " (\(summary.skippedBefore) known from earlier scans, not read again)" : ""
                // A scan that changed tracks left the table stale (one that did not kept it).
                library.prepareSearchTable()
                log.info(
                    "scan done in \((summary.seconds * 100).rounded() / 100) s: \(summary.added) added, \(summary.updated) updated, \(summary.removed) removed, \(summary.skipped) skipped\(before)")
                return summary
            } catch {
                log.error("scan failed: \(error)")
                events.publish(.scan(ScanProgressSummary(seen: 0, total: nil, rate: 0, done: true)))
                throw error
            }
        }
        latest = task
        return task
    }
}

/// At most a few progress events a second: status bars redraw on each one.
private final class ProgressThrottle: Sendable {
    private let last = Mutex<ContinuousClock.Instant?>(nil)

    func shouldReport(_ progress: ScanProgress) -> Bool {
        if progress.done { return true }
        let now = ContinuousClock.now
        return last.withLock { last in
            if let previous = last, now - previous < .milliseconds(200) { return false }
            last = now
            return true
        }
    }
}
