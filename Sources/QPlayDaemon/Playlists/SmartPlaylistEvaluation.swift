import QPlayLibrary
import QPlayModel
import QPlayProtocol

/// A smart playlist's tracks now: its query through the search table (counts and ages
/// from the listening figures), then its order and limit. Ties keep the library order,
/// so the same figures always give the same list (except `random`).
enum SmartPlaylistEvaluation {
    static func tracks(of rule: SmartPlaylistRule, in index: LibraryIndex) throws -> [QPlayModel.Track] {
        let query = Query(rule.where)
        guard let sort = rule.sort else { return try index.search(query, limit: rule.limit).tracks }
        let descending = (rule.order ?? sort.defaultOrder) == .descending
        switch sort {
        case .random, .title:
            var tracks = try index.search(query).tracks
            if sort == .random {
                tracks.shuffle()
            } else {
                let keys = tracks.map { Array(TextFolding.fold($0.title).utf8) }
                tracks = order(tracks, by: keys, descending: descending) { $0.lexicographicallyPrecedes($1) }
            }
            if let limit = rule.limit, tracks.count > limit { tracks.removeSubrange(limit...) }
            return tracks
        case .plays, .rating, .lastPlayed, .added:
            let listening = index.listening
            return try index.search(query, limit: rule.limit, descending: descending) { id in
                let figures = listening.figures(of: id)
                switch sort {
                case .plays: return Double(figures.plays)
                case .rating: return Double(figures.rating)
                // Never played (or not yet recorded) is the oldest of all.
                case .lastPlayed: return figures.lastPlayed ?? -.infinity
                default: return figures.added ?? -.infinity
                }
            }.tracks
        }
    }

    /// How many tracks the playlist holds now: its order does not change the count.
    static func count(of rule: SmartPlaylistRule, in index: LibraryIndex) throws -> Int {
        let found = try index.count(Query(rule.where))
        return min(found, max(rule.limit ?? found, 0))
    }

    /// `tracks` ordered by `keys` (one per track), ties in their present order.
    private static func order<Key>(
        _ tracks: [QPlayModel.Track], by keys: [Key], descending: Bool, _ less: (Key, Key) -> Bool
    ) -> [QPlayModel.Track] {
        let positions = tracks.indices.sorted { a, b in
            if less(keys[a], keys[b]) { return !descending }
            if less(keys[b], keys[a]) { return descending }
            return a < b
        }
        return positions.map { tracks[$0] }
    }
}
