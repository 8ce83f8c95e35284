/// One row of the queue: the same track may stand in several entries.
public struct Entry: Sendable, Hashable, Codable {
    public var entry: Int64
    /// 0-based.
    public var index: Int
    public var track: Track

    public init(entry: Int64, index: Int, track: Track) {
        self.entry = entry
        self.index = index
        self.track = track
    }
}

/// The `queue` result: the collection the user edits.
public struct Queue: Sendable, Hashable, Codable {
    public var entries: [Entry]
    /// The entry id of what is playing, also when it is no longer in a modified queue.
    public var current: Int64?
    /// Edited since the player last installed it.
    public var modified: Bool

    public init(entries: [Entry], current: Int64? = nil, modified: Bool = false) {
        self.entries = entries
        self.current = current
        self.modified = modified
    }

    enum CodingKeys: String, CodingKey { case entries, current, modified }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entries, forKey: .entries)
        try container.encode(current, forKey: .current)
        try container.encode(modified, forKey: .modified)
    }
}
