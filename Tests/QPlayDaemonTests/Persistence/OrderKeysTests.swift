import QPlayEngine
import Testing

@testable import QPlayDaemon

/// The sort keys behind the stored queue: after any edit the keys follow the list, and
/// an edit of one entry rewrites one key however long the list is.
@Suite struct OrderKeysTests {
    /// Applies `change` to a copy of what was stored, as the database would.
    static func stored(_ before: [Int64: Double], _ change: OrderKeys.Change) -> [Int64: Double] {
        var rows = before
        for id in change.removed { rows[id] = nil }
        for (id, key) in change.assigned { rows[id] = key }
        return rows
    }

    static func order(_ rows: [Int64: Double]) -> [Int64] {
        rows.sorted { $0.value < $1.value }.map(\.key)
    }

    @Test func singleEditsOfALongListRewriteOneKey() {
        var keys = OrderKeys()
        var ids = (1...100_000).map(Int64.init)
        var rows = Self.stored([:], keys.update(to: ids))
        func edit(_ change: (inout [Int64]) -> Void) -> Int {
            change(&ids)
            let written = keys.update(to: ids)
            rows = Self.stored(rows, written)
            return written.assigned.count + written.removed.count
        }
        #expect(edit { $0.append(200_001) } == 1)
        #expect(edit { $0.insert($0.removeFirst(), at: $0.count) } == 1)
        #expect(edit { $0.insert($0.removeLast(), at: 0) } == 1)
        #expect(edit { $0.insert($0.remove(at: 50_000), at: 10) } == 1)
        #expect(edit { _ = $0.remove(at: 3) } == 1)
        #expect(edit { $0.insert(200_002, at: 60_000) } == 1)
        #expect(edit { $0.swapAt(0, 99_999) } == 2)
        #expect(Self.order(rows) == ids)
        let count = ids.count
        #expect(edit { $0 = [] } == count)
        #expect(rows.isEmpty)
    }

    /// A seeded random walk of inserts, removals, moves and reversals: the stored keys
    /// always sort into the list, also after the room between two keys runs out.
    @Test func randomEditsKeepTheStoredOrder() {
        var random = ShuffleRandom(state: 7)
        var keys = OrderKeys()
        var ids: [Int64] = []
        var rows: [Int64: Double] = [:]
        var next: Int64 = 1
        for step in 0..<3_000 {
            switch Int.random(in: 0..<6, using: &random) {
            case 0, 1:
                // Inserting again and again at one place uses up the doubles there.
                let at = step % 2 == 0 ? min(1, ids.count) : Int.random(in: 0...ids.count, using: &random)
                ids.insert(next, at: at)
                next += 1
            case 2 where !ids.isEmpty:
                ids.remove(at: Int.random(in: 0..<ids.count, using: &random))
            case 3 where ids.count > 1:
                let from = Int.random(in: 0..<ids.count, using: &random)
                let moved = ids.remove(at: from)
                ids.insert(moved, at: Int.random(in: 0...ids.count, using: &random))
            case 4 where ids.count > 4:
                let start = Int.random(in: 0..<(ids.count - 3), using: &random)
                ids[start..<(start + 3)].reverse()
            default:
                ids.append(next)
                next += 1
            }
            rows = Self.stored(rows, keys.update(to: ids))
            if Self.order(rows) != ids {
                Issue.record("step \(step): stored order \(Self.order(rows)) for \(ids)")
                return
            }
        }
    }

    /// Inserting or moving again and again to one place of a long list runs out of room
    /// between two keys every few dozen edits; then only a stretch around that place gets
    /// new keys, never the whole list (which wrote every row each time).
    @Test func crowdedPlacesRewriteAStretchNotTheList() {
        var keys = OrderKeys()
        var ids = (1...20_000).map(Int64.init)
        var rows = Self.stored([:], keys.update(to: ids))
        var largest = 0
        var total = 0
        func edit(_ change: (inout [Int64]) -> Void) {
            change(&ids)
            let written = keys.update(to: ids)
            rows = Self.stored(rows, written)
            largest = max(largest, written.assigned.count + written.removed.count)
            total += written.assigned.count + written.removed.count
        }
        for n in 0..<300 {
            edit { $0.insert(200_000 + Int64(n), at: 10_000) }  // each new one before the last
        }
        for n in 0..<300 {
            edit { $0.insert($0.remove(at: 10 + n % 7), at: 15_000) }  // moves to one place
        }
        for n in 0..<100 {
            edit { $0.insert(300_000 + Int64(n), at: 1) }  // near the start
        }
        #expect(Self.order(rows) == ids)
        #expect(largest < 1_000, "one edit rewrote \(largest) keys")
        #expect(total < 4 * 700, "700 edits rewrote \(total) keys")
    }

    /// The room check: keys spread between two neighbours must leave each gap wide
    /// enough for many more halvings at their magnitude.
    @Test func roomIsJudgedAtTheKeysMagnitude() {
        #expect(OrderKeys.roomy([1.5], after: 1, before: 2))
        #expect(!OrderKeys.roomy([100_000 + 0x1p-40], after: 100_000, before: 100_000 + 0x1p-39))
        #expect(OrderKeys.roomy([-0.5], after: -1, before: 0))
    }

    @Test func keysReadBackContinueTheList() {
        var keys = OrderKeys()
        let rows = Self.stored([:], keys.update(to: [5, 6, 7]))
        var reread = OrderKeys(stored: rows.map { (id: $0.key, key: $0.value) })
        #expect(reread == keys)
        let change = reread.update(to: [5, 8, 6, 7])
        #expect(change.assigned.map(\.id) == [8])
        #expect(Self.order(Self.stored(rows, change)) == [5, 8, 6, 7])
    }
}
