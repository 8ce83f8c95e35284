import QPlayModel

/// The ids of a list of entries, read in place: what `OrderKeys.update(to:)` compares
/// with the stored list. A lazy `map(\.id)` copied each entry out to read its id — a
/// retain and a release of its track, 100,000 of each for one edit of a long queue;
/// the subscript here reads the id field of the array's element where it lies.
struct EntryIDs: RandomAccessCollection, Sendable {
    let entries: [QueueEntry]

    init(_ entries: [QueueEntry]) { self.entries = entries }

    var startIndex: Int { 0 }
    var endIndex: Int { entries.count }
    subscript(position: Int) -> Int64 { entries[position].id }
}
