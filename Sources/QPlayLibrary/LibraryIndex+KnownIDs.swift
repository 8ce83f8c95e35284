import GRDB
import QPlayModel

extension LibraryIndex {
    /// Which of `ids` the library holds, without building their tracks: what a list of
    /// 100,000 bookmarks checks before it builds only the page it answers.
    public func knownIDs(among ids: Set<TrackID>) throws -> Set<TrackID> {
        try pool.read { db in
            if let table = try searchTable(db, loading: false) {
                return ids.filter { table.rank(of: $0) != nil }
            }
            var known = Set<TrackID>()
            let all = Array(ids)
            // SQLite limits the number of bound variables per statement.
            for start in stride(from: 0, to: all.count, by: 500) {
                let chunk = all[start..<min(start + 500, all.count)]
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                let found = try TrackID.fetchAll(
                    db, sql: "SELECT id FROM track WHERE id IN (\(marks))", arguments: StatementArguments(Array(chunk)))
                known.formUnion(found)
            }
            return known
        }
    }
}
