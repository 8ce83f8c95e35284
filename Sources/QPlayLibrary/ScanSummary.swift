/// How far a scan has come, for progress bars and the `scan` event.
public struct ScanProgress: Sendable, Equatable {
    /// Files looked at so far (unchanged ones included).
    public var seen: Int
    /// Files found by the walk; nil while the walk is still running.
    public var total: Int?
    /// Files looked at per second since the scan started.
    public var rate: Double
    public var done: Bool

    public init(seen: Int, total: Int?, rate: Double, done: Bool) {
        self.seen = seen
        self.total = total
        self.rate = rate
        self.done = done
    }
}

/// A file or folder the scan could not index fully, and why.
public struct ScanProblem: Sendable, Codable, Equatable, CustomStringConvertible {
    /// Relative to the music directory; bytes that are not UTF-8 are shown as U+FFFD.
    public var path: String
    public var reason: String
    /// True when the file is not in the index; false when it was indexed as far as it
    /// could be (a cut-short file, an absurdly long tag, a name that is not UTF-8).
    public var skipped: Bool

    public init(path: String, reason: String, skipped: Bool = true) {
        self.path = path
        self.reason = reason
        self.skipped = skipped
    }

    public var description: String {
        "\(skipped ? "skipped" : "indexed") \(path): \(reason)"
    }
}

/// What one scan changed. `skipped` counts files (and unreadable folders) not indexed,
/// including those an earlier scan skipped and remembered: how many files are unplayable
/// stays visible. `problems` lists only what this scan found new, so each is told once.
public struct ScanSummary: Sendable, Codable, Equatable {
    public var added: Int
    public var updated: Int
    public var removed: Int
    public var skipped: Int
    /// Of `skipped`: files remembered as skipped by an earlier scan and unchanged since,
    /// neither read nor reported again. Not stored with the last scan's summary.
    public var skippedBefore: Int = 0
    /// Files whose size and modification time had not changed (not re-read).
    public var unchanged: Int
    public var seconds: Double
    public var problems: [ScanProblem]

    private enum CodingKeys: String, CodingKey {
        case added, updated, removed, skipped, unchanged, seconds, problems
    }

    public init(
        added: Int = 0, updated: Int = 0, removed: Int = 0, skipped: Int = 0,
        unchanged: Int = 0, seconds: Double = 0, problems: [ScanProblem] = []
    ) {
        self.added = added
        self.updated = updated
        self.removed = removed
        self.skipped = skipped
        self.unchanged = unchanged
        self.seconds = seconds
        self.problems = problems
    }
}

/// Totals of the index, for `stats`.
public struct LibraryStatistics: Sendable, Equatable {
    public var tracks: Int
    /// Distinct non-empty artist tags (ignoring case and diacritics).
    public var artists: Int
    /// Distinct (album artist or else artist, album) pairs with a non-empty album.
    public var albums: Int
    /// Sum of all track durations in seconds.
    public var totalDuration: Double
    public var lastScan: ScanSummary?
    /// When the last scan finished, seconds since the epoch.
    public var lastScanDate: Double?

    public init(
        tracks: Int, artists: Int, albums: Int, totalDuration: Double = 0,
        lastScan: ScanSummary? = nil, lastScanDate: Double? = nil
    ) {
        self.tracks = tracks
        self.artists = artists
        self.albums = albums
        self.totalDuration = totalDuration
        self.lastScan = lastScan
        self.lastScanDate = lastScanDate
    }
}
