/// A named moment in a track (`bookmark_list`): where `bookmark_jump` plays from.
public struct Bookmark: Sendable, Hashable, Codable {
    public var bookmark: Int64
    /// The track, as everywhere on the wire (its `id` is what `bookmark_list` filters by).
    public var track: Track
    /// Seconds into the track.
    public var position: Double
    public var name: String?
    /// When it was made: ISO 8601 local time with its offset.
    public var created: String

    public init(bookmark: Int64, track: Track, position: Double, name: String?, created: String) {
        self.bookmark = bookmark
        self.track = track
        self.position = position
        self.name = name
        self.created = created
    }

    enum CodingKeys: String, CodingKey { case bookmark, track, position, name, created }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bookmark, forKey: .bookmark)
        try container.encode(track, forKey: .track)
        try container.encode(Seconds.rounded(position), forKey: .position)
        try container.encode(name, forKey: .name)
        try container.encode(created, forKey: .created)
    }
}

/// The `bookmark_add` result.
public struct BookmarkAdded: Sendable, Hashable, Codable {
    public var bookmark: Int64
    public init(bookmark: Int64) { self.bookmark = bookmark }
}

/// The `bookmark_list` result, oldest first.
public struct BookmarkList: Sendable, Hashable, Codable {
    public var bookmarks: [Bookmark]
    public init(bookmarks: [Bookmark]) { self.bookmarks = bookmarks }
}
