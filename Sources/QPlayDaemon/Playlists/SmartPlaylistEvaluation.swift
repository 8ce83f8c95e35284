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
        var tracks = try index.search(query).tracks
        let descending = (rule.order ?? sort.defaultOrder) == .descending
        switch sort {
        case .random:
            tracks.shuffle()
        case .title:
            let keys = tracks.map { Array(TextFolding.fold($0.title).utf8) }
            tracks = order(tracks, by: keys, descending: descending) { $0.lexicographicallyPrecedes($1) }
        case .plays, .rating, .lastPlayed, .added:
            let keys = tracks.map { track -> Double in
                let figures = index.listening.figures(of: track.id)
                switch sort {
                case .plays: return Double(figures.plays)
                case .rating: return Double(figures.rating)
                // Never played (or not yet recorded) is the oldest of all.
                case .lastPlayed: return figures.lastPlayed ?? -.infinity
                default: return figures.added ?? -.infinity
                }
            }
            tracks = order(tracks, by: keys, descending: descending, <)
        }
        if let limit = rule.limit, tracks.count > limit { tracks.removeSubrange(limit...) }
        return tracks
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
