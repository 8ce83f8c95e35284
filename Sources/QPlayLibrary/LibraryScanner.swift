import Foundation
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
    /// Lower-case file name extensions of playable files ("mp3", "mp2", …).
    public let extensions: Set<String>
    /// Parser threads; all cores by default.
    public var parallelism: Int = ProcessInfo.processInfo.activeProcessorCount
    /// Files written per transaction.
    public var batchSize: Int = 500

    public init(musicDirectory: FilePath, index: LibraryIndex, extensions: Set<String>) {
        self.musicDirectory = musicDirectory
        self.index = index
        self.extensions = Set(extensions.map { $0.lowercased() })
    }

    /// Scans the whole music directory, or only `subpath` (relative to it). Runs on its
    /// own threads; queries keep answering from the last committed batch meanwhile.
    /// `progress` is called from the scan's thread.
    public func scan(
        subpath: FilePath? = nil,
        progress: @escaping @Sendable (ScanProgress) -> Void = { _ in }
    ) async throws -> ScanSummary {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                do {
                    continuation.resume(returning: try scanNow(subpath: subpath, progress: progress))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.start()
        }
    }

    /// The scan itself, on the calling thread.
    public func scanNow(
        subpath: FilePath? = nil, progress: (ScanProgress) -> Void = { _ in }
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
        var protectedPrefixes: [[UInt8]] = []  // unreadable folders: keep what they held
        var walkInfo = stat()
        let walkRootExists = walkRoot.withPlatformString { stat($0, &walkInfo) } == 0 || errno != ENOENT
        if walkRootExists {
            let walker = MusicFileWalker(extensions: extensions)
            let walkProblems = walker.walk(walkRoot) { entry in
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
        let known = try index.knownFiles()
        var jobs: [ParseJob] = []
        var unchanged = 0
        var seenKnown = Set<Data>()
        for (relative, entry) in found {
            let key = Data(relative)
            let old = known[key]
            if let old {
                seenKnown.insert(key)
                if old.size == entry.size && old.modificationTime == entry.modificationTime {
                    unchanged += 1
                    continue
                }
            }
            jobs.append(
                ParseJob(
                    absolutePath: entry.pathBytes, relativePath: relative, size: entry.size,
                    modificationTime: entry.modificationTime, knownID: old?.id))
        }
        var vanished: [TrackID] = []
        for (key, file) in known where !seenKnown.contains(key) {
            guard key.starts(with: prefix) else { continue }
            let isProtected = protectedPrefixes.contains { folder in
                key.starts(with: folder) && (key.count == folder.count || key[key.startIndex + folder.count] == UInt8(ascii: "/"))
            }
            if !isProtected { vanished.append(file.id) }
        }
        let total = found.count
        progress(ScanProgress(seen: unchanged, total: total, rate: Double(unchanged) / max(elapsed(), 1e-6), done: false))

        // 3. Read changed and new files on every core; write in batches as they come.
        var summary = ScanSummary(unchanged: unchanged, problems: problems)
        summary.skipped = problems.count
        var seen = unchanged
        let parser = ParallelTagParser(threads: parallelism, batchSize: batchSize)
        try parser.parse(jobs) { outcomes in
            var files: [IndexedFile] = []
            var dropped: [TrackID] = []
            for outcome in outcomes {
                switch outcome {
                case .parsed(let file, let warnings, let job):
                    files.append(file)
                    if job.knownID == nil { summary.added += 1 } else { summary.updated += 1 }
                    for warning in warnings {
                        summary.problems.append(
                            ScanProblem(path: Self.display(job.relativePath), reason: warning, skipped: false))
                    }
                case .failed(let reason, let job):
                    summary.skipped += 1
                    summary.problems.append(ScanProblem(path: Self.display(job.relativePath), reason: reason))
                    // It was indexed before and is no longer readable: it goes.
                    if let id = job.knownID {
                        dropped.append(id)
                        summary.removed += 1
                    }
                }
            }
            try index.write(files, removing: dropped)
            seen += outcomes.count
            progress(ScanProgress(seen: seen, total: total, rate: Double(seen) / max(elapsed(), 1e-6), done: false))
        }

        // 4. Vanished files, and the summary, in the last transaction.
        summary.removed += vanished.count
        summary.problems.sort { $0.path < $1.path }
        summary.seconds = elapsed()
        try index.write([], removing: vanished, lastScan: summary)
        progress(ScanProgress(seen: seen, total: total, rate: Double(seen) / max(summary.seconds, 1e-6), done: true))
        return summary
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

    static func display(_ relativePath: [UInt8]) -> String {
        String(decoding: relativePath, as: UTF8.self)
    }
}
