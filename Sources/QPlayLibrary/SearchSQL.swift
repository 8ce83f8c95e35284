import Foundation
import GRDB

/// Translates a `Query` into SQL over the folded columns.
///
/// - `contains` with 3+ characters: the FTS5 trigram index (exact substring semantics:
///   the phrase's trigrams must be consecutive).
/// - `equals`: folded column = folded value, narrowed first by the trigram index when
///   the value has 3+ characters.
/// - 1–2 characters, and paths: trigrams cannot help or are not kept; `instr` (or `=`)
///   over the folded column.
struct SearchSQL {
    var sql: String
    var arguments: StatementArguments

    /// The library order (docs/BEHAVIOUR.md, Queries and their order): album artist (artist when there is none), album, disc, track
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
            let characters = value.unicodeScalars.count
            let fts = Self.ftsTable(predicate.property)
            switch predicate.comparison {
            case .equals:
                // The trigram index narrows the rows; the comparison decides.
                if let fts, characters >= 3 {
                    conditions.append("id IN (SELECT rowid FROM \(fts) WHERE \(fts) MATCH ?)")
                    values.append("\(column) : \(Self.phrase(value))")
                }
                conditions.append("\(column) = ?")
                values.append(value)
            case .contains:
                if characters == 0 { continue }  // every text contains the empty string
                if let fts, characters >= 3 {
                    conditions.append("id IN (SELECT rowid FROM \(fts) WHERE \(fts) MATCH ?)")
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

    /// The trigram table holding `property`, if one does.
    static func ftsTable(_ property: SearchProperty) -> String? {
        switch property {
        case .title: return "track_title_fts"
        case .artist, .album, .albumArtist, .genre: return "track_tags_fts"
        case .path: return nil
        }
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
