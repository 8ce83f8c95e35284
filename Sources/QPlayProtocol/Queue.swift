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

/// The `queue` result: the collection the user edits, whole or a window of it.
public struct Queue: Sendable, Hashable, Codable {
    public var entries: [Entry]
    /// The entry id of what is playing, also when it is no longer in a modified queue.
    public var current: Int64?
    /// Edited since the player last installed it.
    public var modified: Bool
    /// The index of the first of `entries` (0 for the whole queue).
    public var start: Int
    /// The queue's length, whatever part of it `entries` holds.
    public var total: Int

    public init(entries: [Entry], current: Int64? = nil, modified: Bool = false, start: Int = 0, total: Int? = nil) {
        self.entries = entries
        self.current = current
        self.modified = modified
        self.start = start
        self.total = total ?? entries.count
    }

    /// Whether this is a part of the queue, not all of it.
    public var isWindow: Bool { entries.count < total }

    enum CodingKeys: String, CodingKey { case entries, current, modified, start, total }

    /// `start` and `total` may be missing (an answer of a daemon before windows): then
    /// the entries are the whole queue.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        entries = try container.decode([Entry].self, forKey: .entries)
        current = try container.decodeIfPresent(Int64.self, forKey: .current)
        modified = try container.decode(Bool.self, forKey: .modified)
        start = try container.decodeIfPresent(Int.self, forKey: .start) ?? 0
        total = try container.decodeIfPresent(Int.self, forKey: .total) ?? entries.count
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entries, forKey: .entries)
        try container.encode(current, forKey: .current)
        try container.encode(modified, forKey: .modified)
        try container.encode(start, forKey: .start)
        try container.encode(total, forKey: .total)
    }
}
