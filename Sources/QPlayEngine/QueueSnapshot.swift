import QPlayModel

/// What `queue` reports: the collection the user sees and edits.
public struct QueueSnapshot: Sendable, Equatable {
    public var entries: [QueueEntry]
    /// The now-playing entry, which may be absent from `entries` after `clear`.
    public var current: EntryID?
    /// The collection was edited since it was last installed.
    public var modified: Bool
    /// Grows by one on every edit of the collection (add, remove, move, clear, an entry
    /// consumed), not when it is installed, and survives restarts: equal versions mean
    /// the same list (what MPD's `playlist` version and `plchanges` rely on).
    public var version: UInt64
}
