/// A listening figure a predicate can test. Raw values are the protocol's names.
public enum FigureProperty: String, Sendable, CaseIterable, Codable {
    case plays, skips, rating
    case lastPlayed = "last_played"
    case added

    /// Plays, skips and ratings are counts; the other two are times.
    public var isTime: Bool { self == .lastPlayed || self == .added }
}

/// One condition on a track's listening figures: a count compared with a number, or a
/// time compared with an age ("within 30 days", "before 90 days ago"). A track never
/// played is never `within` and always `before`.
public struct FigurePredicate: Sendable, Hashable, Codable {
    public enum Test: Sendable, Hashable, Codable {
        case equal(Int), less(Int), greater(Int), lessOrEqual(Int), greaterOrEqual(Int)
        /// At most this many seconds ago.
        case within(seconds: Double)
        /// More than this many seconds ago, or never.
        case before(seconds: Double)
    }

    public var property: FigureProperty
    public var test: Test

    public init(_ property: FigureProperty, _ test: Test) {
        self.property = property
        self.test = test
    }

    /// The counts a count test accepts, as a closed range (empty: `lower > upper`), so
    /// the search loop is two comparisons per track whatever the operator.
    var countRange: (lower: UInt32, upper: UInt32)? {
        func clamp(_ value: Int) -> UInt32 { UInt32(clamping: value) }
        switch test {
        case .equal(let n): return n < 0 ? (1, 0) : (clamp(n), clamp(n))
        case .less(let n): return n <= 0 ? (1, 0) : (0, clamp(n - 1))
        case .lessOrEqual(let n): return n < 0 ? (1, 0) : (0, clamp(n))
        case .greater(let n): return n < 0 ? (0, .max) : (n >= Int(UInt32.max) ? (1, 0) : (clamp(n + 1), .max))
        case .greaterOrEqual(let n): return (clamp(max(n, 0)), .max)
        case .within, .before: return nil
        }
    }

    /// A time test as a threshold, `now` being the current Unix time: `within` passes a
    /// time at or after it, `before` one earlier. Nil for a count test.
    func timeThreshold(now: Double) -> (time: Double, within: Bool)? {
        switch test {
        case .within(let seconds): (now - seconds, true)
        case .before(let seconds): (now - seconds, false)
        default: nil
        }
    }

    /// The one place the "never" rule lives: a time is NaN for never, and NaN compares
    /// false, so never is never `within` and always `before`.
    @inline(__always)
    static func passes(time: Double, threshold: (time: Double, within: Bool)) -> Bool {
        (time >= threshold.time) == threshold.within
    }

    /// Whether `figures` pass, `now` being the current Unix time.
    public func matches(_ figures: TrackFigures, now: Double) -> Bool {
        switch property {
        case .plays, .skips, .rating:
            let value = property == .plays ? figures.plays : property == .skips ? figures.skips : figures.rating
            guard let range = countRange else { return false }
            return UInt32(clamping: value) >= range.lower && UInt32(clamping: value) <= range.upper
        case .lastPlayed, .added:
            guard let threshold = timeThreshold(now: now) else { return false }
            let time = property == .added ? figures.added : figures.lastPlayed
            return Self.passes(time: time ?? .nan, threshold: threshold)
        }
    }
}
