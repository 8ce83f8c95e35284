import QPlayEngine
import QPlayModel
import Testing

/// Windows of the collection (`queue` with `start`/`count` or `around`): the entries of
/// the window, in collection order, with where they start and the whole length.
@Suite struct QueueWindowTests {
    static func numbered(_ count: Int) -> [Track] {
        (1...count).map { track("T\($0)", id: TrackID($0)) }
    }

    static func titles(_ queue: QueueSnapshot) -> [String] {
        queue.entries.map(\.track.title)
    }

    @Test func aRangeIsClippedToTheCollection() throws {
        var h = Harness()
        try h.add(Self.numbered(10), startsWhenEmpty: false)
        let middle = h.engine.queue(from: 3, count: 4)
        #expect(Self.titles(middle) == ["T4", "T5", "T6", "T7"])
        #expect(middle.start == 3 && middle.total == 10)
        #expect(middle.entries == Array(h.engine.queue.entries[3..<7]))
        let tail = h.engine.queue(from: 8, count: 100)
        #expect(Self.titles(tail) == ["T9", "T10"])
        #expect(tail.start == 8)
        let past = h.engine.queue(from: 50, count: 5)
        #expect(past.entries.isEmpty && past.start == 10 && past.total == 10)
        let whole = h.engine.queue
        #expect(whole.start == 0 && whole.total == 10 && whole.entries.count == 10)
    }

    @Test func aroundCentresOnThePlayingEntryAndIsCutAtTheEnds() throws {
        var h = Harness()
        try h.add(Self.numbered(100))
        try h.act { try $0.jump(index: 49, now: $1, position: $2) }
        let window = h.engine.queue(around: 3)
        #expect(Self.titles(window) == ["T47", "T48", "T49", "T50", "T51", "T52", "T53"])
        #expect(window.start == 46 && window.total == 100)
        #expect(window.current == h.engine.queue.entries[49].id)
        try h.act { try $0.jump(index: 1, now: $1, position: $2) }
        #expect(Self.titles(h.engine.queue(around: 3)) == ["T1", "T2", "T3", "T4", "T5"])
        try h.act { try $0.jump(index: 98, now: $1, position: $2) }
        let end = h.engine.queue(around: 3)
        #expect(Self.titles(end) == ["T96", "T97", "T98", "T99", "T100"])
        #expect(end.start == 95)
        #expect(Self.titles(h.engine.queue(around: 0)) == ["T99"])
        #expect(h.engine.queue(around: Int.max).entries.count == 100)
    }

    @Test func aroundFollowsThePlayingEntryThroughEdits() throws {
        var h = Harness()
        try h.add(Self.numbered(30))
        try h.act { try $0.jump(index: 10, now: $1, position: $2) }
        try h.act { try $0.remove(index: 0, now: $1, position: $2) }
        try h.add(Self.numbered(5), at: 0)
        // T11 plays, now at index 14.
        let window = h.engine.queue(around: 1)
        #expect(Self.titles(window) == ["T10", "T11", "T12"])
        #expect(window.start == 13)
    }

    @Test func withNothingPlayingAroundStartsAtTheFirstEntry() throws {
        var h = Harness()
        #expect(h.engine.queue(around: 5).entries.isEmpty)
        try h.add(Self.numbered(20), startsWhenEmpty: false)
        let window = h.engine.queue(around: 2)
        #expect(Self.titles(window) == ["T1", "T2", "T3", "T4", "T5"])
        #expect(window.start == 0 && window.total == 20)
        // The playing entry cleared away: the window is the collection's start again.
        try h.act { try $0.jump(index: 5, now: $1, position: $2) }
        h.act { $0.clear(now: $1, position: $2) }
        try h.add(Self.numbered(3), startsWhenEmpty: false)
        #expect(h.engine.queue.current != nil)
        #expect(Self.titles(h.engine.queue(around: 1)) == ["T1", "T2", "T3"])
    }

    /// A queue entry is an id and a reference: edits shift and copy arrays of entries,
    /// and a track inline (about 250 bytes) made a move at 100,000 entries shift 25 MB.
    @Test func anEntryIsSmall() {
        #expect(MemoryLayout<QueueEntry>.stride <= 16)
        let a = QueueEntry(id: 1, track: track("A"))
        #expect(a == QueueEntry(id: 1, track: track("A")))
        #expect(a != QueueEntry(id: 1, track: track("B")))
        #expect(a != QueueEntry(id: 2, track: track("A")))
        #expect(Set([a, QueueEntry(id: 1, track: track("A"))]).count == 1)
    }
}
