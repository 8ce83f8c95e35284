import QPlayModel
/// A set of predicates that must all hold. The empty query matches every track.
public struct Query: Sendable, Hashable, Codable {
    public var predicates: [Predicate]

    public init(_ predicates: [Predicate] = []) {
        self.predicates = predicates
    }

    public init(predicates: [Predicate]) {
        self.predicates = predicates
    }

    public static let all = Query()

    /// "title contains TEXT", what `qplay search TEXT` asks.
    public static func titleContains(_ text: String) -> Query {
        Query([Predicate(.title, .contains, text)])
    }

    public func matches(_ track: Track) -> Bool {
        predicates.allSatisfy { $0.matches(track) }
    }
}
