
/// Identifies one row of the queue. Handed out in increasing order, never reused, and
/// persisted with the queue, so an id a client saw keeps meaning that row.
public typealias EntryID = Int64

/// One row of the queue. The entry id, not the track, is its identity: the same track can
/// stand in the queue twice and only the row that plays is marked as playing.
public struct QueueEntry: Sendable, Hashable, Identifiable {
    public let id: EntryID
    public let track: Track

    public init(id: EntryID, track: Track) {
        self.id = id
        self.track = track
    }
}
