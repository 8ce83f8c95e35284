import QPlayModel
import Testing

@testable import QPlayEngine

/// The installed queue a plan makes in queue order lists no ids (`InstalledQueue`): it
/// must answer every question as the listed one does, whatever the hints say.
@Suite struct InstalledQueueTests {
    static let entries = (1...8).map { QueueEntry(id: EntryID($0 * 10), track: track("T\($0)", id: TrackID($0))) }

    @Test func anUnlistedQueueAnswersAsAListedOne() {
        let lazy = InstalledQueue.inQueueOrder(Self.entries)
        let listed = lazy.materialized()
        #expect(!lazy.isMaterialized)
        #expect(listed.isMaterialized)
        #expect(lazy == listed)
        #expect(lazy.order == Self.entries.map(\.id))
        #expect(listed.order == Self.entries.map(\.id))
        for queue in [lazy, listed] {
            #expect(queue.orderCount == 8)
            #expect((0..<8).map(queue.orderID(at:)) == Self.entries.map(\.id))
            // Right, neighbouring, wrong, out-of-range and no hints all find the place.
            for hint in [nil, 2, 3, 4, 7, 0, -5, 100] as [Int?] {
                #expect(queue.orderIndex(of: 40, near: hint) == 3)
                #expect(queue.entry(40, near: hint)?.track.title == "T4")
            }
            #expect(queue.orderIndex(of: 45, near: 3) == nil)
            #expect(queue.entry(45) == nil)
            #expect(queue.contains(80))
            #expect(!queue.contains(81))
        }
        let removed = lazy.removing(30)
        #expect(removed == listed.removing(30))
        #expect(removed.order == [10, 20, 40, 50, 60, 70, 80])
        #expect(removed.orderIndex(of: 40, near: 3) == 2)
    }

    /// With shuffle the play order is its own: a hint (a place in the queue) does not
    /// stand for a place in it.
    @Test func aShuffledOrderIsLookedUpInTheOrder() {
        let order: [EntryID] = [30, 10, 80, 20, 70, 40, 60, 50]
        let queue = InstalledQueue(entries: Self.entries, order: order)
        #expect(queue.order == order)
        #expect((0..<8).map(queue.orderID(at:)) == order)
        #expect(queue.orderIndex(of: 40, near: 3) == 5)
        #expect(queue.entry(40, near: 5)?.track.title == "T4")
        #expect(queue != InstalledQueue.inQueueOrder(Self.entries))
        #expect(queue.removing(10).order == [30, 80, 20, 70, 40, 60, 50])
    }

    /// The engine's hint to the playing entry follows inserts, removals and moves before
    /// it and its own move, and a successor planned after each edit is the entry after it
    /// in the queue.
    @Test func theSuccessorAfterEditsBeforeThePlayingEntry() throws {
        var h = Harness()
        try h.add((1...6).map { track("T\($0)", id: TrackID($0)) })
        h.act { engine, now, position in engine.next(now: now, position: position) }
        h.act { engine, now, position in engine.next(now: now, position: position) }
        #expect(h.nowPlaying == "T3")
        try h.add((7...12).map { track("T\($0)", id: TrackID($0)) }, at: 0)
        #expect(h.status.next?.track.title == "T4")
        h.act { engine, now, position in try! engine.remove(index: 1, now: now, position: position) }
        #expect(h.status.next?.track.title == "T4")
        h.act { engine, now, position in try! engine.move(from: 0, to: 10, now: now, position: position) }
        #expect(h.status.next?.track.title == "T4")
        h.act { engine, now, position in try! engine.move(from: 6, to: 7, now: now, position: position) }  // T3 itself
        #expect(h.titles == ["T9", "T10", "T11", "T12", "T1", "T2", "T4", "T3", "T5", "T6", "T7"])
        #expect(h.status.next?.track.title == "T5")
        h.act { engine, now, position in engine.next(now: now, position: position) }
        #expect(h.nowPlaying == "T5")
        #expect(h.status.next?.track.title == "T6")
    }
}
