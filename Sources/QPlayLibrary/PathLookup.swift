import Foundation

/// Path → rank over the rows of a search table: an open-addressed table of ranks keyed
/// by a hash of each row's path bytes, built once per table (`SearchTable.pathLookup`).
/// A lookup hashes the path and compares it with the paths of the few ranks in its
/// slots, rebuilt from the table's packed bytes: a 10,000-entry playlist's paths are
/// found in a few milliseconds, where the index's `path` b-tree took ~3 µs a path in
/// SQL (binding, a descent from the root, blob comparisons on each level).
///
/// Ranks are stored as `UInt32` (rank + 1, 0: empty) in 1.5 slots a row, each with 8
/// more bits of its path's hash, so a probe that meets another path's slot skips it
/// without rebuilding that path (1 in 256 still does): 7.5 bytes a track, 0.75 MB at
/// 100,000.
struct PathLookup: Sendable {
    private let slots: [UInt32]
    private let tags: [UInt8]

    init(_ table: SearchTable) {
        let capacity = max(8, table.count + table.count / 2)
        var slots = [UInt32](repeating: 0, count: capacity)
        var tags = [UInt8](repeating: 0, count: capacity)
        table.withPaths { pathOf in
            for rank in 0..<table.count {
                let (start, tag) = Self.place(of: pathOf(rank), capacity: capacity)
                var slot = start
                while slots[slot] != 0 { slot = slot + 1 == capacity ? 0 : slot + 1 }
                slots[slot] = UInt32(rank + 1)
                tags[slot] = tag
            }
        }
        self.slots = slots
        self.tags = tags
    }

    /// The rank whose path is `path`; `pathOf` gives a rank's path (`SearchTable.withPaths`).
    func rank(of path: UnsafeBufferPointer<UInt8>, pathOf: (Int) -> UnsafeBufferPointer<UInt8>) -> Int? {
        let capacity = slots.count
        let (start, tag) = Self.place(of: path, capacity: capacity)
        var slot = start
        while true {
            let stored = slots[slot]
            if stored == 0 { return nil }
            if tags[slot] == tag {
                let rank = Int(stored - 1)
                let candidate = pathOf(rank)
                if candidate.count == path.count,
                    path.isEmpty || memcmp(candidate.baseAddress!, path.baseAddress!, path.count) == 0
                {
                    return rank
                }
            }
            slot = slot + 1 == capacity ? 0 : slot + 1
        }
    }

    /// The first slot to probe (from the hash's high bits) and the tag (its low byte).
    private static func place(of path: UnsafeBufferPointer<UInt8>, capacity: Int) -> (slot: Int, tag: UInt8) {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(path))
        let hash = UInt64(bitPattern: Int64(hasher.finalize()))
        return (Int(hash.multipliedFullWidth(by: UInt64(capacity)).high), UInt8(truncatingIfNeeded: hash))
    }
}
