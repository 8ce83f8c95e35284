/// A track property a predicate can test. Raw values are the protocol's names.
public enum SearchProperty: String, Sendable, CaseIterable, Codable {
    case title
    case artist
    case album
    case albumArtist = "album_artist"
    case genre
    case path
}

/// How a predicate compares; both ignore case and diacritics.
public enum Comparison: String, Sendable, CaseIterable, Codable {
    case contains
    case equals
}
