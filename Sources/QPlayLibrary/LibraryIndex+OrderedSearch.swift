import GRDB
import QPlayModel

extension LibraryIndex {
    /// The first `limit` tracks matching `query` ordered by `key` of their ids (ties in
    /// the library order): a smart playlist sorted by plays or rating. Only the tracks
    /// handed out are built; the others are ids and keys.
    public func search(
        _ query: Query, limit: Int?, descending: Bool, orderedBy key: (TrackID) -> Double
    ) throws -> ItemCollection {
        func order(_ ids: [TrackID]) -> [Int] {
            let keys = ids.map(key)
            return ids.indices.sorted { a, b in
                if keys[a] < keys[b] { return !descending }
                if keys[b] < keys[a] { return descending }
                return a < b
            }
        }
        let tracks = try pool.read { db -> [Track] in
            guard let table = try searchTable(db, loading: true) else {
                let found = try sqlSearch(query, limit: nil, db)
                return order(found.map(\.id)).prefix(max(limit ?? found.count, 0)).map { found[$0] }
            }
            let ranks = try table.ranks(matching: query, listening: listening, db).map(Array.init) ?? Array(0..<table.count)
            let positions = order(ranks.map { table.rows[$0].id }).prefix(max(limit ?? ranks.count, 0))
            return table.tracks(atRanks: positions.map { ranks[$0] })
        }
        return ItemCollection(tracks)
    }
}
