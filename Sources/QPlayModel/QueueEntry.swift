
/// Identifies one row of the queue. Handed out in increasing order, never reused, and
/// persisted with the queue, so an id a client saw keeps meaning that row.
public typealias EntryID = Int64

/// One row of the queue. The entry id, not the track, is its identity: the same track can
/// stand in the queue twice and only the row that plays is marked as playing.
///
/// The track is held by reference: an entry is 16 bytes, not the ~250 of a `Track`.
/// Queue edits shift and copy arrays of entries; at 100,000 entries a move shifted 25 MB
/// and the copy an edit makes of a list shared with the installed queue retained every
/// string of every track, where now it is one retain an entry.
public struct QueueEntry: Sendable, Hashable, Identifiable {
    public let id: EntryID
    private let box: TrackBox

    public var track: Track { box.track }

    /// Reads the track where the entry keeps it: no copy of its ~250 bytes, no retains of
    /// its strings (storing a 10,000-entry load reads each track once).
    public func withTrack<Result>(_ body: (borrowing Track) throws -> Result) rethrows -> Result {
        try body(box.track)
    }

    public init(id: EntryID, track: Track) {
        self.id = id
        box = TrackBox(track)
    }

    public static func == (lhs: QueueEntry, rhs: QueueEntry) -> Bool {
        lhs.id == rhs.id && (lhs.box === rhs.box || lhs.box.track == rhs.box.track)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(box.track)
    }
}

/// A track that never changes, shared by the copies of its entry.
private final class TrackBox: Sendable {
    let track: Track
    init(_ track: Track) { self.track = track }
}
