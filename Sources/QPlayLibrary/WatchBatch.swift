/// The folders changed since the last batch was handed over, and when the next one is
/// due: after a quiet period with no change, or at the latest a cap after the first
/// change, so that a long copy is indexed in steps instead of only once it ends.
struct WatchBatch {
    var quietPeriod: Duration
    var cap: Duration
    /// Relative folder paths; empty bytes: the whole music directory.
    private(set) var folders: Set<[UInt8]> = []
    private var first: ContinuousClock.Instant?
    private var last: ContinuousClock.Instant?

    init(quietPeriod: Duration, cap: Duration) {
        self.quietPeriod = quietPeriod
        self.cap = cap
    }

    var isEmpty: Bool { folders.isEmpty }

    mutating func note(_ folder: [UInt8], at now: ContinuousClock.Instant) {
        folders.insert(folder)
        if first == nil { first = now }
        last = now
    }

    /// When the batch should be handed over; nil when nothing is pending.
    var due: ContinuousClock.Instant? {
        guard let first, let last else { return nil }
        return min(last + quietPeriod, first + cap)
    }

    /// The pending folders with those inside another pending folder left out (its scan
    /// covers them), in byte order; empties the batch.
    mutating func take() -> [[UInt8]] {
        let taken = Self.covering(folders)
        folders = []
        first = nil
        last = nil
        return taken
    }

    static func covering(_ folders: Set<[UInt8]>) -> [[UInt8]] {
        if folders.contains([]) { return [[]] }
        let sorted = folders.sorted { $0.lexicographicallyPrecedes($1) }
        var kept: [[UInt8]] = []
        for folder in sorted {
            let inside = kept.contains { outer in
                folder.count > outer.count && folder.starts(with: outer) && folder[outer.count] == UInt8(ascii: "/")
            }
            if !inside { kept.append(folder) }
        }
        return kept
    }
}
