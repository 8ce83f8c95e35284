import QPlayModel
/// One condition on a track: (property, comparison, value), ignoring case and diacritics.
public struct Predicate: Sendable, Hashable, Codable {
    public var property: SearchProperty
    public var comparison: Comparison
    public var value: String

    public init(_ property: SearchProperty, _ comparison: Comparison, _ value: String) {
        self.property = property
        self.comparison = comparison
        self.value = value
    }

    public init(property: SearchProperty, comparison: Comparison, value: String) {
        self.init(property, comparison, value)
    }

    /// `value` folded the way the index stores properties.
    public var foldedValue: String { TextFolding.fold(value) }

    /// Whether `track` satisfies this predicate; the same answer the index gives.
    public func matches(_ track: Track) -> Bool {
        let subject = TextFolding.fold(track.text(of: property))
        let wanted = foldedValue
        switch comparison {
        case .equals: return subject == wanted
        case .contains: return wanted.isEmpty || subject.utf8.firstRange(of: wanted.utf8) != nil
        }
    }
}

extension Track {
    /// The text a predicate on `property` looks at; absent tags are the empty string and
    /// the path is its bytes read as UTF-8 (invalid bytes become U+FFFD).
    public func text(of property: SearchProperty) -> String {
        switch property {
        case .title: return title
        case .artist: return artist ?? ""
        case .album: return album ?? ""
        case .albumArtist: return albumArtist ?? ""
        case .genre: return genre ?? ""
        case .path: return PathBytes.displayString(path)
        }
    }
}
