/// What qplay knows about one track's listening: times are Unix seconds, nil when it
/// never happened (or, for `added`, when the track has not been recorded yet).
public struct TrackFigures: Sendable, Equatable {
    public var plays: Int
    public var skips: Int
    public var lastPlayed: Double?
    /// Stars, 0–5; 0 is unrated.
    public var rating: Int
    public var added: Double?

    public init(plays: Int = 0, skips: Int = 0, lastPlayed: Double? = nil, rating: Int = 0, added: Double? = nil) {
        self.plays = plays
        self.skips = skips
        self.lastPlayed = lastPlayed
        self.rating = rating
        self.added = added
    }
}
