import Foundation
import QPlayModel
import Synchronization
import SystemPackage

/// A file the scanner wants read.
struct ParseJob: Sendable {
    var absolutePath: [UInt8]
    var relativePath: [UInt8]
    var size: Int64
    var modificationTime: Int64
    /// The id the file has in the index, when it is a changed file rather than a new one.
    var knownID: TrackID?
    /// The index remembers it as skipped (it changed since, or would not be read again).
    var wasSkipped = false
}

/// What reading one file gave.
enum ParseOutcome: Sendable {
    case parsed(IndexedFile, warnings: [String], job: ParseJob)
    /// `lasting`: the same bytes would fail the same way, so the skip may be remembered.
    case failed(reason: String, lasting: Bool, job: ParseJob)
}

/// Reads tags on several threads at once (TagLib is synchronous and CPU-bound) and hands
/// the results to one consumer, in batches, on the calling thread. Dedicated threads,
/// not Swift tasks: TagLib blocks, and the daemon's cooperative pool must stay free for
/// requests while a scan runs.
struct ParallelTagParser {
    var threads: Int
    var batchSize: Int
    var budget: TagReadBudget = .standard

    /// Parses every job; calls `consume` on the calling thread with batches of about
    /// `batchSize` outcomes (in no particular order) until all are done.
    func parse(_ jobs: [ParseJob], consume: ([ParseOutcome]) throws -> Void) rethrows {
        guard !jobs.isEmpty else { return }
        let shared = SharedState(jobs: jobs)
        let workers = max(1, min(threads, jobs.count))
        let handoff = max(1, min(64, batchSize))
        for _ in 0..<workers {
            let thread = Thread {
                var local: [ParseOutcome] = []
                while true {
                    let next = shared.next.add(1, ordering: .relaxed).oldValue
                    if next >= shared.jobs.count { break }
                    local.append(Self.parse(shared.jobs[next], budget: budget))
                    if local.count >= handoff {
                        shared.deliver(local, finished: false)
                        local.removeAll(keepingCapacity: true)
                    }
                }
                shared.deliver(local, finished: true)
            }
            thread.start()
        }
        var batch: [ParseOutcome] = []
        var finishedWorkers = 0
        while finishedWorkers < workers {
            shared.signal.wait()
            let (outcomes, finished) = shared.take()
            batch += outcomes
            finishedWorkers += finished
            if batch.count >= batchSize {
                try consume(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        // Every worker signalled its last delivery; nothing remains in `shared`.
        let (outcomes, _) = shared.take()
        batch += outcomes
        if !batch.isEmpty { try consume(batch) }
    }

    static func parse(_ job: ParseJob, budget: TagReadBudget) -> ParseOutcome {
        if job.size == 0 {
            return .failed(reason: "empty file (0 bytes)", lasting: true, job: job)
        }
        do {
            let tags = try TagReader.read(PathBytes.path(job.absolutePath), budget: budget)
            let (track, warnings) = TrackBuilder.track(
                tags: tags, relativePath: job.relativePath, size: job.size,
                modificationTime: job.modificationTime)
            return .parsed(
                IndexedFile(track: track, pathBytes: job.relativePath), warnings: warnings, job: job)
        } catch {
            return .failed(reason: error.description, lasting: error.isLasting, job: job)
        }
    }

    private final class SharedState: Sendable {
        let jobs: [ParseJob]
        let next = Atomic<Int>(0)
        let pending = Mutex<(outcomes: [ParseOutcome], finished: Int)>(([], 0))
        let signal = DispatchSemaphore(value: 0)

        init(jobs: [ParseJob]) {
            self.jobs = jobs
        }

        func deliver(_ outcomes: [ParseOutcome], finished: Bool) {
            pending.withLock {
                $0.outcomes += outcomes
                if finished { $0.finished += 1 }
            }
            signal.signal()
        }

        func take() -> ([ParseOutcome], Int) {
            pending.withLock { state in
                let taken = (state.outcomes, state.finished)
                state = ([], 0)
                return taken
            }
        }
    }
}
