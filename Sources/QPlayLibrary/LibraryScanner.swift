import Foundation
import QPlayModel
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Brings the index in step with the music directory: reads new and changed files (size
/// or modification time differ) with TagLib on every core, drops vanished ones, and
/// reports every file it could not index fully. A file never stops a scan.
public struct LibraryScanner: Sendable {
    public let musicDirectory: FilePath
    public let index: LibraryIndex
    /// Lower-case file name extensions of playable files ("mp3", "flac", …): what the
    /// decoders play; every format's by default. They only pick the files to read: the
    /// format a file is indexed as is chosen by its content (`TagReader`).
    public let extensions: Set<String>
    /// Parser threads; all cores by default.
    public var parallelism: Int = ProcessInfo.processInfo.activeProcessorCount
    /// Files written per transaction.
    public var batchSize: Int = 500
    /// The most TagLib may spend on one file before it is skipped.
    public var readBudget: TagReadBudget = .standard

    public init(
        musicDirectory: FilePath, index: LibraryIndex, extensions: Set<String> = AudioFileFormat.allFileExtensions
    ) {
        self.musicDirectory = musicDirectory
        self.index = index
        self.extensions = Set(extensions.map { $0.lowercased() })
    }

    /// Scans the whole music directory, or only `subpath` (relative to it). Runs on its
    /// own threads; queries keep answering from the last committed batch meanwhile.
    /// `keeping`: folders (relative) whose indexed tracks stay even where the walk does
    /// not find them, as for a disk unmounted below the music directory.
    /// `progress` is called from the scan's thread.
    public func scan(
        subpath: FilePath? = nil, keeping: [FilePath] = [],
        progress: @escaping @Sendable (ScanProgress) -> Void = { _ in }
    ) async throws -> ScanSummary {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                do {
                    continuation.resume(
                        returning: try scanNow(subpath: subpath, keeping: keeping, progress: progress))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.start()
        }
    }

    /// The scan itself, on the calling thread.
    public func scanNow(
        subpath: FilePath? = nil, keeping: [FilePath] = [], progress: (ScanProgress) -> Void = { _ in }
    ) throws -> ScanSummary {
        guard index.beginScan() else { throw LibraryScanError.scanInProgress }
        defer { index.endScan() }
        let clock = ContinuousClock()
        let start = clock.now
        func elapsed() -> Double {
            let duration = clock.now - start
            return Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        }

        try checkMusicDirectory()
        let root = PathBytes.bytes(musicDirectory)
        var prefix: [UInt8] = []  // relative path bytes of the scanned folder + "/"
        var walkRoot = musicDirectory
        if let subpath, !subpath.isEmpty {
            guard !subpath.isAbsolute, !subpath.components.contains(where: { $0.kind != .regular })
            else { throw LibraryScanError.subpathOutsideMusicDirectory(subpath) }
            walkRoot = musicDirectory.appending(subpath.components)
            prefix = PathBytes.bytes(subpath) + [UInt8(ascii: "/")]
        }
        progress(ScanProgress(seen: 0, total: nil, rate: 0, done: false))

        // 1. Walk. A scanned subfolder that is gone means its tracks are gone.
        var found: [(relative: [UInt8], entry: MusicFileWalker.Entry)] = []
        var problems: [ScanProblem] = []
        // Unreadable folders and those asked for: keep what they held.
        var protectedPrefixes: [[UInt8]] = keeping.map(PathBytes.bytes)
        let walkRootExists = Self.exists(walkRoot)
        if !walkRootExists, let subpath, !subpath.isEmpty { try checkSubpath(subpath) }
        if walkRootExists {
            let above = try subpath.map(foldersAbove) ?? []
            let walker = MusicFileWalker(extensions: extensions)
            let walkProblems = walker.walk(walkRoot, above: above) { entry in
                if let relative = PathBytes.relative(entry.pathBytes, to: root) {
                    found.append((Array(relative), entry))
                }
            }
            for problem in walkProblems {
                let bytes = PathBytes.bytes(problem.path)
                let relative = PathBytes.relative(bytes, to: root).map(Array.init) ?? prefix.dropLast()
                problems.append(
                    ScanProblem(path: String(decoding: relative, as: UTF8.self), reason: problem.reason))
                protectedPrefixes.append(Array(relative))
            }
        }

        // 2. Compare with the index.
        let plan = ScanPlan(
            found: found, known: try index.knownFiles(), remembered: try index.rememberedSkips(),
            prefix: prefix, protectedPrefixes: protectedPrefixes)
        let total = found.count
        var seen = plan.unchanged + plan.skippedBefore
        progress(ScanProgress(seen: seen, total: total, rate: Double(seen) / max(elapsed(), 1e-6), done: false))

        var summary = ScanSummary(unchanged: plan.unchanged, problems: problems)
        summary.skipped = problems.count + plan.skippedBefore
        summary.skippedBefore = plan.skippedBefore
        if !plan.specialFiles.isEmpty {
            try skip(plan.specialFiles, in: &summary)
            seen += plan.specialFiles.count
        }

        // 3. Read changed and new files on every core; write in batches as they come.
        var parser = ParallelTagParser(threads: parallelism, batchSize: batchSize)
        parser.budget = readBudget
        try parser.parse(plan.jobs) { outcomes in
            var files: [IndexedFile] = []
            var dropped: [TrackID] = []
            var skips: [SkippedFile] = []
            var forget: [[UInt8]] = []
            for outcome in outcomes {
                switch outcome {
                case .parsed(let file, let warnings, let job):
                    files.append(file)
                    if job.wasSkipped { forget.append(job.relativePath) }
                    if job.knownID == nil { summary.added += 1 } else { summary.updated += 1 }
                    for warning in warnings {
                        summary.problems.append(
                            ScanProblem(path: Self.display(job.relativePath), reason: warning, skipped: false))
                    }
                case .failed(let reason, let lasting, let job):
                    summary.skipped += 1
                    summary.problems.append(ScanProblem(path: Self.display(job.relativePath), reason: reason))
                    if lasting {
                        skips.append(
                            SkippedFile(
                                pathBytes: job.relativePath, size: job.size,
                                modificationTime: job.modificationTime, reason: reason))
                    } else if job.wasSkipped {
                        // Tried again next time (and reported again) until it opens.
                        forget.append(job.relativePath)
                    }
                    // It was indexed before and is no longer readable: it goes.
                    if let id = job.knownID {
                        dropped.append(id)
                        summary.removed += 1
                    }
                }
            }
            try index.write(files, removing: dropped, remembering: skips, forgetting: forget)
            seen += outcomes.count
            progress(ScanProgress(seen: seen, total: total, rate: Double(seen) / max(elapsed(), 1e-6), done: false))
        }

        // 4. Vanished files, and the summary, in the last transaction.
        summary.removed += plan.vanished.count
        summary.problems.sort { $0.path < $1.path }
        summary.seconds = elapsed()
        try index.write([], removing: plan.vanished, forgetting: plan.forgotten, lastScan: summary)
        progress(ScanProgress(seen: seen, total: total, rate: Double(seen) / max(summary.seconds, 1e-6), done: true))
        return summary
    }

    /// Skips FIFOs, sockets and devices without opening them (a FIFO blocks a reader,
    /// /dev/zero never ends), remembers them, and drops a track that became one.
    private func skip(_ files: [ScanPlan.SpecialFile], in summary: inout ScanSummary) throws {
        var skips: [SkippedFile] = []
        var dropped: [TrackID] = []
        for file in files {
            let reason = "not a regular file (\(file.kind))"
            summary.skipped += 1
            summary.problems.append(ScanProblem(path: Self.display(file.relativePath), reason: reason))
            skips.append(
                SkippedFile(
                    pathBytes: file.relativePath, size: file.entry.size,
                    modificationTime: file.entry.modificationTime, reason: reason))
            if let id = file.knownID {
                dropped.append(id)
                summary.removed += 1
            }
        }
        try index.write([], removing: dropped, remembering: skips)
    }

    /// Refuses to scan (and so to purge anything) when the music directory is missing,
    /// unreadable or empty, as when the disk it lives on is not mounted.
    private func checkMusicDirectory() throws {
        var info = stat()
        guard musicDirectory.withPlatformString({ stat($0, &info) }) == 0 else {
            throw LibraryScanError.musicDirectoryUnavailable(
                musicDirectory, reason: String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw LibraryScanError.musicDirectoryUnavailable(musicDirectory, reason: "not a directory")
        }
        guard let handle = musicDirectory.withPlatformString({ opendir($0) }) else {
            throw LibraryScanError.musicDirectoryUnavailable(
                musicDirectory, reason: String(cString: strerror(errno)))
        }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let isDotOrDotDot = withUnsafeBytes(of: entry.pointee.d_name) { name in
                name[0] == 0x2E && (name[1] == 0 || (name[1] == 0x2E && name[2] == 0))
            }
            if !isDotOrDotDot { return }
        }
        throw LibraryScanError.musicDirectoryEmpty(musicDirectory)
    }

    /// Throws `subpathNotFound` when `subpath` (relative) names nothing in the music
    /// directory and the index holds nothing there: a scan of it could only answer
    /// "nothing changed". A folder that is gone but still indexed passes (its scan
    /// removes its tracks). Lets a caller refuse before it queues the scan.
    /// Throws `subpathLoops` for a path through a symlink back up (`foldersAbove`).
    public func checkSubpath(_ subpath: FilePath) throws {
        guard !subpath.isEmpty else { return }
        _ = try foldersAbove(subpath)
        guard !Self.exists(musicDirectory.appending(subpath.components)) else { return }
        if try !index.holdsEntries(at: subpath) { throw LibraryScanError.subpathNotFound(subpath) }
    }

    /// Whether `path` (symlinks followed) is there, or at least not known to be missing.
    private static func exists(_ path: FilePath) -> Bool {
        var info = stat()
        return path.withPlatformString { stat($0, &info) } == 0 || errno != ENOENT
    }

    static func display(_ relativePath: [UInt8]) -> String {
        String(decoding: relativePath, as: UTF8.self)
    }
}
