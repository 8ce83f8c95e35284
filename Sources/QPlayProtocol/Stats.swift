/// What a finished scan did (`update` with `wait`, and `stats.last_scan`).
public struct ScanTotals: Sendable, Hashable, Codable {
    public var added: Int
    public var updated: Int
    public var removed: Int
    public var skipped: Int
    public var seconds: Double

    public init(added: Int, updated: Int, removed: Int, skipped: Int, seconds: Double) {
        self.added = added
        self.updated = updated
        self.removed = removed
        self.skipped = skipped
        self.seconds = seconds
    }

    enum CodingKeys: String, CodingKey { case added, updated, removed, skipped, seconds }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(added, forKey: .added)
        try container.encode(updated, forKey: .updated)
        try container.encode(removed, forKey: .removed)
        try container.encode(skipped, forKey: .skipped)
        try container.encode(Seconds.rounded(seconds), forKey: .seconds)
    }
}

/// The `stats` result.
public struct Stats: Sendable, Hashable, Codable {
    public var tracks: Int
    public var artists: Int
    public var albums: Int
    /// Null until the first scan of this index finished.
    public var lastScan: ScanTotals?
    /// Seconds since the daemon started.
    public var uptime: Double

    public init(tracks: Int, artists: Int, albums: Int, lastScan: ScanTotals?, uptime: Double) {
        self.tracks = tracks
        self.artists = artists
        self.albums = albums
        self.lastScan = lastScan
        self.uptime = uptime
    }

    enum CodingKeys: String, CodingKey { case tracks, artists, albums, lastScan = "last_scan", uptime }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(tracks, forKey: .tracks)
        try container.encode(artists, forKey: .artists)
        try container.encode(albums, forKey: .albums)
        try container.encode(lastScan, forKey: .lastScan)
        try container.encode(Seconds.rounded(uptime), forKey: .uptime)
    }
}
