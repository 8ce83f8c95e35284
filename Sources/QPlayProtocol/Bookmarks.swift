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

/// The `bookmark_list` result: a window of the bookmarks, oldest first, from the
/// `start`th of `total`. Paged so that 100,000 bookmarks are not one 34 MB line.
public struct BookmarkList: Sendable, Hashable, Codable {
    /// Bookmarks in a window when the request gives no `count`.
    public static let defaultWindow = 1000
    /// The most a request may ask for at once.
    public static let maximumWindow = 5000

    public var bookmarks: [Bookmark]
    public var start: Int
    public var total: Int

    public init(bookmarks: [Bookmark], start: Int = 0, total: Int? = nil) {
        self.bookmarks = bookmarks
        self.start = start
        self.total = total ?? bookmarks.count
    }
}
