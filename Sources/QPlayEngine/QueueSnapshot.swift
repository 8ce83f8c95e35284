import QPlayModel

/// What `queue` reports: the collection the user sees and edits.
public struct QueueSnapshot: Sendable, Equatable {
    public var entries: [QueueEntry]
    /// The now-playing entry, which may be absent from `entries` after `clear`.
    public var current: EntryID?
    /// The collection was edited since it was last installed.
    public var modified: Bool
}
