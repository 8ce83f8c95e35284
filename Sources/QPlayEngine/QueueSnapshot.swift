import QPlayModel

/// What `queue` reports: the collection the user sees and edits, whole or a window of it.
public struct QueueSnapshot: Sendable, Equatable {
    /// The collection, or the window of it from `start`.
    public var entries: [QueueEntry]
    /// The now-playing entry, which may be absent from `entries` after `clear`.
    public var current: EntryID?
    /// The collection was edited since it was last installed.
    public var modified: Bool
    /// Grows by one on every edit of the collection (add, remove, move, clear, an entry
    /// consumed), not when it is installed, and survives restarts: equal versions mean
    /// the same list (what MPD's `playlist` version and `plchanges` rely on).
    public var version: UInt64
    /// The collection index of `entries.first` (0 for the whole collection).
    public var start: Int
    /// The collection's length, whatever part of it `entries` holds: a client pages by it.
    public var total: Int

    public init(
        entries: [QueueEntry], current: EntryID?, modified: Bool, version: UInt64, start: Int = 0, total: Int? = nil
    ) {
        self.entries = entries
        self.current = current
        self.modified = modified
        self.version = version
        self.start = start
        self.total = total ?? entries.count
    }
}
