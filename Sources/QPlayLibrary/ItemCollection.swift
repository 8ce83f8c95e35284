import QPlayModel
/// An immutable, ordered list of tracks: what a query answers and what the queue holds.
/// Every operation returns a new collection and leaves the receiver as it was. The same
/// track may stand in one collection more than once; positions tell the copies apart.
public struct ItemCollection: Sendable, Equatable, Hashable, RandomAccessCollection {
    public typealias Element = Track
    public typealias Index = Int

    /// The tracks in order.
    public let tracks: [Track]

    public init(_ tracks: [Track] = []) {
        self.tracks = tracks
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { tracks.count }
    public subscript(position: Int) -> Track { tracks[position] }

    public func appending(_ track: Track) -> ItemCollection {
        ItemCollection(tracks + [track])
    }

    public func appending(contentsOf other: ItemCollection) -> ItemCollection {
        ItemCollection(tracks + other.tracks)
    }

    /// The collection without the item at `index`; `index` must be valid, as for
    /// `Array.remove(at:)`.
    public func removing(at index: Int) -> ItemCollection {
        precondition(indices.contains(index), "ItemCollection.removing(at: \(index)) out of 0..<\(count)")
        var copy = tracks
        copy.remove(at: index)
        return ItemCollection(copy)
    }

    /// The collection with `track` placed at `index` (0...count).
    public func inserting(_ track: Track, at index: Int) -> ItemCollection {
        precondition((0...count).contains(index), "ItemCollection.inserting(at: \(index)) out of 0...\(count)")
        var copy = tracks
        copy.insert(track, at: index)
        return ItemCollection(copy)
    }

    /// The collection with the item at `source` moved so that it ends up at `destination`.
    public func moving(from source: Int, to destination: Int) -> ItemCollection {
        precondition(indices.contains(source) && indices.contains(destination), "ItemCollection.moving(from: \(source), to: \(destination)) out of 0..<\(count)")
        var copy = tracks
        let track = copy.remove(at: source)
        copy.insert(track, at: destination)
        return ItemCollection(copy)
    }

    /// Whether a track with `track`'s id is in the collection. Identity, not equality of
    /// every tag: a track re-read by a rescan is still the same track.
    public func contains(_ track: Track) -> Bool {
        tracks.contains { $0.id == track.id }
    }

    /// The item after the one at `index`; nil when `index` is the last item or no item.
    /// Positions, not tracks, say which item is meant, so duplicates are unambiguous.
    public func item(after index: Int) -> Track? {
        guard index >= 0, index + 1 < tracks.count else { return nil }
        return tracks[index + 1]
    }

    /// The position of the first item with `track`'s id at or after `start`.
    public func firstIndex(of track: Track, from start: Int = 0) -> Int? {
        guard start < tracks.count else { return nil }
        return tracks[Swift.max(start, 0)...].firstIndex { $0.id == track.id }
    }
}
