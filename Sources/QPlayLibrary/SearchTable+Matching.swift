import Foundation
import GRDB

extension SearchTable {
    /// The ranks of the rows matching every predicate, or nil when every row matches.
    /// `db` must be the snapshot the table was loaded from (same generation): the trigram
    /// and path sub-queries answer from it.
    func ranks(matching query: Query, listening: ListeningFigures, _ db: Database) throws -> RankSet? {
        var result: RankSet?
        func intersect(_ ranks: RankSet) {
            if result == nil {
                result = ranks
            } else {
                result!.formIntersection(ranks)
            }
        }
        for predicate in query.predicates {
            if let ranks = try ranks(matching: predicate, db) { intersect(ranks) }
        }
        let now = Date().timeIntervalSince1970
        for predicate in query.figures {
            intersect(rows.withUnsafeBufferPointer { listening.ranks(of: $0, passing: predicate, now: now) })
        }
        return result
    }

    /// The same decisions as `SearchSQL`, answered from memory where that is faster.
    private func ranks(matching predicate: Predicate, _ db: Database) throws -> RankSet? {
        let value = predicate.foldedValue
        if predicate.comparison == .contains && value.isEmpty { return nil }
        let wanted = Array(value.utf8)
        switch predicate.property {
        case .title:
            if predicate.comparison == .contains && value.unicodeScalars.count >= 3 {
                // The trigram index answers in well under a millisecond, even for 5,000
                // matches; scanning 100,000 titles would take a few.
                return try ranks(
                    ofIDs: "SELECT rowid FROM track_title_fts WHERE track_title_fts MATCH ?",
                    "f_title : \(SearchSQL.phrase(value))", db)
            }
            return scanTitles(for: wanted, predicate.comparison)
        case .artist, .album, .albumArtist, .genre:
            // Few distinct texts (one per artist or album): test each once, then each
            // group (one per album) once, then the rows.
            var matchingTags = [Bool](repeating: false, count: tags.count)
            foldedTags.bytes.withUnsafeBufferPointer { all in
                wanted.withUnsafeBufferPointer { wanted in
                    for tag in matchingTags.indices {
                        let text = UnsafeBufferPointer(rebasing: all[foldedTags.range(tag)])
                        matchingTags[tag] = Self.matches(text, wanted, predicate.comparison)
                    }
                }
            }
            let keyPath: KeyPath<Group, UInt32> =
                switch predicate.property {
                case .artist: \.artist
                case .album: \.album
                case .albumArtist: \.albumArtist
                default: \.genre
                }
            let matchingGroups = groups.map { matchingTags[Int($0[keyPath: keyPath])] }
            var ranks = RankSet(capacity: count)
            rows.withUnsafeBufferPointer { rows in
                for rank in rows.indices where matchingGroups[Int(rows[rank].group)] {
                    ranks.insert(rank)
                }
            }
            return ranks
        case .path:
            // Folded paths are not kept in memory (they would add ~5 MB at 100,000
            // tracks for a rarely used predicate): SQLite scans f_path.
            let sql =
                predicate.comparison == .equals
                ? "SELECT id FROM track WHERE f_path = ?" : "SELECT id FROM track WHERE instr(f_path, ?) > 0"
            return try ranks(ofIDs: sql, value, db)
        }
    }

    private func ranks(ofIDs sql: String, _ argument: String, _ db: Database) throws -> RankSet {
        var ranks = RankSet(capacity: count)
        let ids = try Int64.fetchCursor(db.cachedStatement(sql: sql), arguments: [argument])
        while let id = try ids.next() {
            if let rank = rank(of: id) { ranks.insert(rank) }
        }
        return ranks
    }

    /// The rows whose folded title contains (or equals) `wanted`, byte-wise: the folded
    /// text is valid UTF-8, so a byte match is a character match, as with SQLite's `instr`.
    private func scanTitles(for wanted: [UInt8], _ comparison: Comparison) -> RankSet {
        var ranks = RankSet(capacity: count)
        texts.withView { texts in
            wanted.withUnsafeBufferPointer { wanted in
                for rank in 0..<count where Self.matches(texts.folded(rank), wanted, comparison) {
                    ranks.insert(rank)
                }
            }
        }
        return ranks
    }

    static func matches(
        _ text: UnsafeBufferPointer<UInt8>, _ wanted: UnsafeBufferPointer<UInt8>, _ comparison: Comparison
    ) -> Bool {
        switch comparison {
        case .equals:
            return text.count == wanted.count
                && (wanted.isEmpty || memcmp(text.baseAddress!, wanted.baseAddress!, wanted.count) == 0)
        case .contains:
            return contains(text, wanted)
        }
    }

    static func contains(_ text: UnsafeBufferPointer<UInt8>, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        wanted.isEmpty || text.firstOffset(of: wanted) != nil
    }
}
