import QPlayModel
/// A set of predicates that must all hold: on the track's tags and path, and on its
/// listening figures. The empty query matches every track.
public struct Query: Sendable, Hashable, Codable {
    public var predicates: [Predicate]
    public var figures: [FigurePredicate]

    public init(_ predicates: [Predicate] = [], figures: [FigurePredicate] = []) {
        self.predicates = predicates
        self.figures = figures
    }

    public init(predicates: [Predicate]) {
        self.init(predicates)
    }

    public static let all = Query()

    /// "title contains TEXT", what `qplay search TEXT` asks.
    public static func titleContains(_ text: String) -> Query {
        Query([Predicate(.title, .contains, text)])
    }

    /// Whether `track`, whose figures are `figures`, matches; the same answer the index gives.
    public func matches(_ track: Track, figures: TrackFigures, now: Double) -> Bool {
        predicates.allSatisfy { $0.matches(track) } && self.figures.allSatisfy { $0.matches(figures, now: now) }
    }

    /// Whether `track` matches, as one never played, skipped or rated.
    public func matches(_ track: Track) -> Bool {
        matches(track, figures: TrackFigures(), now: 0)
    }
}
