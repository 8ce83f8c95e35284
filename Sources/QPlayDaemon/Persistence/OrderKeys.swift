/// The sort keys of one ordered list of entry ids as stored in a column of
/// `queue_entry`: strictly increasing along the list. An edit changes the keys of few
/// rows: the entries around it keep theirs and only new or moved entries get a key
/// between their neighbours', so a move in a 100,000-entry queue writes one row, not
/// 100,000. When no room is left between two neighbours the whole list is renumbered.
struct OrderKeys: Sendable, Equatable {
    private(set) var ids: [Int64] = []
    private(set) var keys: [Double] = []
    private(set) var keyByID: [Int64: Double] = [:]

    /// What `update(to:)` changed: ids whose key is new or different, and ids that left
    /// the list (their key is gone).
    struct Change: Sendable, Equatable {
        var assigned: [(id: Int64, key: Double)] = []
        var removed: [Int64] = []

        var isEmpty: Bool { assigned.isEmpty && removed.isEmpty }

        static func == (lhs: Change, rhs: Change) -> Bool {
            lhs.removed == rhs.removed && lhs.assigned.map(\.id) == rhs.assigned.map(\.id)
                && lhs.assigned.map(\.key) == rhs.assigned.map(\.key)
        }
    }

    init() {}

    /// Keys as read back from the database; `pairs` need not be sorted.
    init(stored pairs: [(id: Int64, key: Double)]) {
        let sorted = pairs.sorted { $0.key < $1.key }
        ids = sorted.map(\.id)
        keys = sorted.map(\.key)
        keyByID = Dictionary(sorted.map { ($0.id, $0.key) }, uniquingKeysWith: { first, _ in first })
    }

    func contains(_ id: Int64) -> Bool { keyByID[id] != nil }

    func key(of id: Int64) -> Double? { keyByID[id] }

    /// Makes `newIDs` (unique ids) the list and returns the rows to write.
    mutating func update(to newIDs: [Int64]) -> Change {
        if newIDs == ids { return Change() }
        // The unchanged ends keep their keys without a look.
        let shorter = min(ids.count, newIDs.count)
        var prefix = 0
        while prefix < shorter, ids[prefix] == newIDs[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, ids[ids.count - 1 - suffix] == newIDs[newIDs.count - 1 - suffix] {
            suffix += 1
        }
        let oldMiddle = ids[prefix..<(ids.count - suffix)]
        let newMiddle = Array(newIDs[prefix..<(newIDs.count - suffix)])
        let lower: Double? = prefix > 0 ? keys[prefix - 1] : nil
        let upper: Double? = suffix > 0 ? keys[keys.count - suffix] : nil
        if let moved = movedOne(oldMiddle, newMiddle, lower: lower, upper: upper, newIDs: newIDs, range: prefix) {
            return moved
        }
        var change = Change()

        let newSet = Set(newMiddle)
        for id in oldMiddle where !newSet.contains(id) {
            change.removed.append(id)
            keyByID[id] = nil
        }
        // Of the middle entries that were in the list already, the longest run whose old
        // keys still increase keeps them; the rest move.
        let oldKeys: [Double?] = newMiddle.map { keyByID[$0] }
        let kept = Self.longestIncreasing(oldKeys)

        var middleKeys = [Double](repeating: 0, count: newMiddle.count)
        var previous = lower
        var index = 0
        var roomLeft = true
        while index < newMiddle.count {
            if kept.contains(index) {
                middleKeys[index] = oldKeys[index]!
                previous = middleKeys[index]
                index += 1
                continue
            }
            // A run of entries without a key: spread them between the keys around it.
            var end = index
            while end < newMiddle.count, !kept.contains(end) { end += 1 }
            let next: Double? = end < newMiddle.count ? oldKeys[end] : upper
            let run = Self.spread(count: end - index, after: previous, before: next)
            guard let run else {
                roomLeft = false
                break
            }
            for (offset, key) in run.enumerated() {
                middleKeys[index + offset] = key
                if oldKeys[index + offset] != key {
                    change.assigned.append((newMiddle[index + offset], key))
                }
            }
            previous = run.last
            index = end
        }
        guard roomLeft else { return renumber(newIDs) }

        ids = newIDs
        keys.replaceSubrange(prefix..<(keys.count - suffix), with: middleKeys)
        for (id, key) in change.assigned { keyByID[id] = key }
        return change
    }

    /// The common edit `move`: the changed middle is the old one with its first entry
    /// moved to the end, or its last to the front. One key, found without a search.
    private mutating func movedOne(
        _ oldMiddle: ArraySlice<Int64>, _ newMiddle: [Int64], lower: Double?, upper: Double?, newIDs: [Int64],
        range start: Int
    ) -> Change? {
        let count = newMiddle.count
        guard count >= 2, oldMiddle.count == count else { return nil }
        let oldStart = oldMiddle.startIndex
        let middleKeys = keys[start..<(start + count)]
        let moved: Int64
        let newKeys: [Double]
        let key: Double
        if newMiddle[count - 1] == oldMiddle[oldStart], newMiddle[0..<(count - 1)] == oldMiddle[(oldStart + 1)...] {
            moved = oldMiddle[oldStart]
            guard let spread = Self.spread(count: 1, after: middleKeys.last, before: upper)?.first else { return nil }
            key = spread
            newKeys = Array(middleKeys.dropFirst()) + [key]
        } else if newMiddle[0] == oldMiddle[oldMiddle.endIndex - 1],
            newMiddle[1...] == oldMiddle[oldStart..<(oldMiddle.endIndex - 1)]
        {
            moved = oldMiddle[oldMiddle.endIndex - 1]
            guard let spread = Self.spread(count: 1, after: lower, before: middleKeys.first)?.first else { return nil }
            key = spread
            newKeys = [key] + Array(middleKeys.dropLast())
        } else {
            return nil
        }
        ids = newIDs
        keys.replaceSubrange(start..<(start + count), with: newKeys)
        keyByID[moved] = key
        return Change(assigned: [(moved, key)], removed: [])
    }

    /// Gives every entry a fresh key 1, 2, 3… (all rows are written).
    private mutating func renumber(_ newIDs: [Int64]) -> Change {
        var change = Change()
        let newSet = Set(newIDs)
        change.removed = ids.filter { !newSet.contains($0) }
        ids = newIDs
        keys = newIDs.indices.map { Double($0 + 1) }
        keyByID = Dictionary(uniqueKeysWithValues: zip(ids, keys))
        change.assigned = Array(zip(ids, keys)).map { (id: $0.0, key: $0.1) }
        return change
    }

    /// `count` increasing keys strictly between `lower` and `upper` (either may be
    /// open), 1 apart at an open end; nil when the doubles between them run out.
    static func spread(count: Int, after lower: Double?, before upper: Double?) -> [Double]? {
        guard count > 0 else { return [] }
        let result: [Double]
        switch (lower, upper) {
        case (nil, nil): result = (1...count).map(Double.init)
        case (let low?, nil): result = (1...count).map { low + Double($0) }
        case (nil, let high?): result = (1...count).map { high - Double(count + 1 - $0) }
        case (let low?, let high?):
            let step = (high - low) / Double(count + 1)
            result = (1...count).map { low + step * Double($0) }
        }
        var last = lower ?? -.infinity
        for key in result {
            guard key > last else { return nil }
            last = key
        }
        if let upper, last >= upper { return nil }
        return result
    }

    /// Indices of a longest strictly increasing subsequence of the non-nil keys
    /// (patience sorting, O(n log n)).
    static func longestIncreasing(_ keys: [Double?]) -> Set<Int> {
        var tails: [Int] = []  // index of the smallest tail of each length
        var parent = [Int](repeating: -1, count: keys.count)
        for (index, key) in keys.enumerated() {
            guard let key else { continue }
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if keys[tails[middle]]! < key { low = middle + 1 } else { high = middle }
            }
            if low > 0 { parent[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result: Set<Int> = []
        var index = tails.last ?? -1
        while index >= 0 {
            result.insert(index)
            index = parent[index]
        }
        return result
    }
}
