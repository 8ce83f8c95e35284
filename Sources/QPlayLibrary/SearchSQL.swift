import Foundation
import GRDB

/// Translates a `Query` into SQL over the folded columns.
///
/// - `equals`: folded column = folded value (indexed for title, artist, album, album artist).
/// - `contains` with 3+ characters: the FTS5 trigram index (exact substring semantics:
///   the phrase's trigrams must be consecutive).
/// - `contains` with 1–2 characters: trigrams cannot help; `instr` over the folded column.
struct SearchSQL {
    var sql: String
    var arguments: StatementArguments

    /// SPEC §2 order: album artist (artist when there is none), album, disc, track
    /// number, title, path. Missing numbers sort first.
    static let order = """
        ORDER BY sort_artist, f_album, coalesce(disc_number, 0), coalesce(track_number, 0),
        f_title, path
        """

    init(_ query: Query, limit: Int?) {
        var conditions: [String] = []
        var values: [any DatabaseValueConvertible] = []
        for predicate in query.predicates {
            let column = Self.column(predicate.property)
            let value = predicate.foldedValue
            switch predicate.comparison {
            case .equals:
                conditions.append("\(column) = ?")
                values.append(value)
            case .contains:
                let characters = value.unicodeScalars.count
                if characters == 0 { continue }  // every text contains the empty string
                if characters >= 3 {
                    conditions.append("id IN (SELECT rowid FROM track_fts WHERE track_fts MATCH ?)")
                    values.append("\(column) : \(Self.phrase(value))")
                } else {
                    conditions.append("instr(\(column), ?) > 0")
                    values.append(value)
                }
            }
        }
        var sql = "SELECT \(TrackRow.selection) FROM track"
        if !conditions.isEmpty {
            sql += " WHERE " + conditions.joined(separator: " AND ")
        }
        sql += " " + Self.order
        if let limit {
            sql += " LIMIT ?"
            values.append(max(limit, 0))
        }
        self.sql = sql
        self.arguments = StatementArguments(values)
    }

    static func column(_ property: SearchProperty) -> String {
        switch property {
        case .title: return "f_title"
        case .artist: return "f_artist"
        case .album: return "f_album"
        case .albumArtist: return "f_album_artist"
        case .genre: return "f_genre"
        case .path: return "f_path"
        }
    }

    /// An FTS5 string literal: double quotes inside are doubled.
    static func phrase(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
