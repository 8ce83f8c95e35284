/// The sort keys of one ordered list of entry ids as stored in a column of
/// `queue_entry`: strictly increasing along the list. An edit changes the keys of few
/// rows: the entries around it keep theirs and only new or moved entries get a key
/// between their neighbours', so a move in a 100,000-entry queue writes one row, not
/// 100,000. When no room is left between two neighbours, only the stretch around them
/// gets fresh keys: the smallest one (doubling from the gap outwards) whose keys leave
/// room again. Renumbering the whole list there wrote every row of a long queue each
/// few dozen inserts or moves to one place (20 ms a move at 100,000 entries).
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

    /// Makes `newIDs` (unique ids, indexed from 0) the list and returns the rows to write.
    /// The list changes in place, between the unchanged ends: the engine's entries are
    /// passed as a view of their ids (`EntryIDs`), so an edit of a long queue neither builds an
    /// array of every id nor replaces the stored one (a fresh 800 KB array an edit, at
    /// 100,000 entries, was a third of saving it, in page faults).
    mutating func update<IDs: RandomAccessCollection<Int64>>(to newIDs: IDs) -> Change where IDs.Index == Int {
        precondition(newIDs.startIndex == 0, "the ids are indexed from 0")
        // The unchanged ends keep their keys without a look.
        let shorter = min(ids.count, newIDs.count)
        var prefix = 0
        while prefix < shorter, ids[prefix] == newIDs[prefix] { prefix += 1 }
        if prefix == ids.count, prefix == newIDs.count { return Change() }
        var suffix = 0
        while suffix < shorter - prefix, ids[ids.count - 1 - suffix] == newIDs[newIDs.count - 1 - suffix] {
            suffix += 1
        }
        let oldRange = prefix..<(ids.count - suffix)
        let lower: Double? = prefix > 0 ? keys[prefix - 1] : nil
        let upper: Double? = suffix > 0 ? keys[keys.count - suffix] : nil
        if let moved = movedOne(oldRange, newIDs[prefix..<(newIDs.count - suffix)]) {
            return moved
        }
        // Copies of the middles only: a slice of `ids` kept alive would make changing
        // `ids` copy all of it.
        let oldMiddle = Array(ids[oldRange])
        let newMiddle = Array(newIDs[prefix..<(newIDs.count - suffix)])
        var change = Change()
        let oldKeys: [Double?] = newMiddle.map { keyByID[$0] }
        if let replaced = replaced(oldMiddle, by: newMiddle, oldKeys, at: prefix, between: lower, and: upper) {
            return replaced
        }

        let newSet = Set(newMiddle)
        for id in oldMiddle where !newSet.contains(id) {
            change.removed.append(id)
            keyByID[id] = nil
        }
        // Of the middle entries that were in the list already, the longest run whose old
        // keys still increase keeps them; the rest move.
        let kept = Self.longestIncreasing(oldKeys)

        // A run without room between its neighbours is left NaN here and given keys by
        // `relabel` once the list is in place.
        var middleKeys = [Double](repeating: 0, count: newMiddle.count)
        var previous = lower
        var index = 0
        var crowded = false
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
            if let run = Self.spread(count: end - index, after: previous, before: next) {
                for (offset, key) in run.enumerated() {
                    middleKeys[index + offset] = key
                    if oldKeys[index + offset] != key {
                        change.assigned.append((newMiddle[index + offset], key))
                    }
                }
                previous = run.last
            } else {
                for offset in index..<end { middleKeys[offset] = .nan }
                crowded = true
            }
            index = end
        }

        ids.replaceSubrange(oldRange, with: newMiddle)
        keys.replaceSubrange(oldRange, with: middleKeys)
        for (id, key) in change.assigned { keyByID[id] = key }
        guard crowded else { return change }
        var position = prefix
        while position < prefix + newMiddle.count {
            guard keys[position].isNaN else {
                position += 1
                continue
            }
            var end = position
            while end < keys.count, keys[end].isNaN { end += 1 }
            change.assigned += relabel(position..<end)
            position = end
        }
        // An entry spread above and then relabelled is written once, with its last key.
        var last: [Int64: Double] = [:]
        for (id, key) in change.assigned { last[id] = key }
        var seen: Set<Int64> = []
        change.assigned = change.assigned.reversed().filter { seen.insert($0.id).inserted }.reversed()
            .map { (id: $0.id, key: last[$0.id]!) }
        return change
    }

    /// The common edits `add`, `clear` and a playlist's load: no entry of the new middle
    /// was in the list (`oldKeys` all nil), so every old one leaves and the new ones are
    /// spread between the kept ends' keys, without the general path's sets and search
    /// (a 10,000-entry load replaces two lists and appends to a third). Nil when that
    /// is not the edit, or the keys around the middle leave no room for it.
    private mutating func replaced(
        _ oldMiddle: [Int64], by newMiddle: [Int64], _ oldKeys: [Double?], at start: Int,
        between lower: Double?, and upper: Double?
    ) -> Change? {
        guard !oldKeys.contains(where: { $0 != nil }),
            let spread = Self.spread(count: newMiddle.count, after: lower, before: upper)
        else { return nil }
        if start == 0 && oldMiddle.count == ids.count {
            keyByID.removeAll(keepingCapacity: true)
        } else {
            for id in oldMiddle { keyByID[id] = nil }
        }
        keyByID.reserveCapacity(ids.count - oldMiddle.count + newMiddle.count)
        var change = Change(assigned: [], removed: oldMiddle)
        change.assigned.reserveCapacity(newMiddle.count)
        for (id, key) in zip(newMiddle, spread) {
            keyByID[id] = key
            change.assigned.append((id, key))
        }
        ids.replaceSubrange(start..<(start + oldMiddle.count), with: newMiddle)
        keys.replaceSubrange(start..<(start + oldMiddle.count), with: spread)
        return change
    }

    /// The common edit `move`: the changed middle is the old one with its first entry
    /// moved to the end, or its last to the front. One key, found without a search; the
    /// other keys of the middle shift by one place in the array, in place.
    private mutating func movedOne<Middle: RandomAccessCollection<Int64>>(
        _ oldRange: Range<Int>, _ newMiddle: Middle
    ) -> Change? where Middle.Index == Int {
        let count = newMiddle.count
        guard count >= 2, oldRange.count == count else { return nil }
        let start = oldRange.lowerBound
        let end = oldRange.upperBound
        let newFirst = newMiddle.startIndex
        let newLast = newMiddle.endIndex - 1
        let moved: Int64
        let place: Int
        if newMiddle[newLast] == ids[start], newMiddle[newFirst..<newLast].elementsEqual(ids[(start + 1)..<end]) {
            // To the end: the ids and keys after it move one place down.
            moved = ids[start]
            Self.shiftDown(&ids, start..<end)
            Self.shiftDown(&keys, start..<end)
            place = end - 1
        } else if newMiddle[newFirst] == ids[end - 1], newMiddle[(newFirst + 1)...].elementsEqual(ids[start..<(end - 1)]) {
            // To the front: the ids and keys before it move one place up.
            moved = ids[end - 1]
            Self.shiftUp(&ids, start..<end)
            Self.shiftUp(&keys, start..<end)
            place = start
        } else {
            return nil
        }
        ids[place] = moved
        let after: Double? = place > 0 ? keys[place - 1] : nil
        let before: Double? = place + 1 < keys.count ? keys[place + 1] : nil
        if let key = Self.spread(count: 1, after: after, before: before)?.first {
            keys[place] = key
            keyByID[moved] = key
            return Change(assigned: [(moved, key)], removed: [])
        }
        keys[place] = .nan
        return Change(assigned: relabel(place..<(place + 1)), removed: [])
    }

    /// Moves `range`'s elements after its first one place down, in place (its last place
    /// is then the caller's to fill).
    private static func shiftDown<Element>(_ array: inout [Element], _ range: Range<Int>) {
        array.withUnsafeMutableBufferPointer { buffer in
            for index in range.lowerBound..<(range.upperBound - 1) { buffer[index] = buffer[index + 1] }
        }
    }

    /// Moves `range`'s elements before its last one place up, in place (its first place
    /// is then the caller's to fill).
    private static func shiftUp<Element>(_ array: inout [Element], _ range: Range<Int>) {
        array.withUnsafeMutableBufferPointer { buffer in
            for index in stride(from: range.upperBound - 1, to: range.lowerBound, by: -1) { buffer[index] = buffer[index - 1] }
        }
    }

    /// Gives fresh keys to the entries of `gap` (whose keys are NaN: they have none yet)
    /// and as few neighbours as leave room: the stretch around the gap doubles until the
    /// keys just outside it are far enough apart for its entries with room to spare
    /// (`roomy`), or it reaches an end of the list, where there is always room. Keys
    /// after the gap may be NaN too (a later gap of the same update): they join it.
    /// Returns the ids whose key changed.
    private mutating func relabel(_ gap: Range<Int>) -> [(id: Int64, key: Double)] {
        var lower = gap.lowerBound
        var upper = gap.upperBound
        var reach = max(1, gap.count)
        while true {
            while upper < keys.count, keys[upper].isNaN { upper += 1 }
            let below: Double? = lower > 0 ? keys[lower - 1] : nil
            let above: Double? = upper < keys.count ? keys[upper] : nil
            if let spread = Self.spread(count: upper - lower, after: below, before: above),
                below == nil || above == nil || Self.roomy(spread, after: below!, before: above!)
            {
                var assigned: [(id: Int64, key: Double)] = []
                for (offset, key) in spread.enumerated() where keys[lower + offset] != key {
                    keys[lower + offset] = key
                    keyByID[ids[lower + offset]] = key
                    assigned.append((ids[lower + offset], key))
                }
                return assigned
            }
            lower = max(0, lower - reach)
            upper = min(keys.count, upper + reach)
            reach *= 2
        }
    }

    /// Whether evenly spread keys leave each gap wide enough for about twenty more
    /// halvings at their magnitude (a double carries 52 bits).
    static func roomy(_ spread: [Double], after lower: Double, before upper: Double) -> Bool {
        let step = (upper - lower) / Double(spread.count + 1)
        return step >= max(1, abs(lower), abs(upper)) * 0x1p-32
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
