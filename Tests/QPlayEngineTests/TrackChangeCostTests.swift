import QPlayEngine
import QPlayModel
import Testing

/// What a track change leaves alone, so the daemon's work per change does not grow with
/// the queue: a change that keeps the installed queue must not count as a change of it
/// (the save would compare the whole queue with the stored rows), and the now-playing
/// index must follow the player wherever it goes.
@Suite struct TrackChangeCostTests {
    static func numbered(_ count: Int, seconds: Double = 10) -> [Track] {
        (1...count).map { track("T\($0)", id: TrackID($0), seconds: seconds) }
    }

    @Test func aTrackChangeInAnInstalledQueueLeavesTheListsUnchanged() throws {
        var h = Harness()
        try h.add(Self.numbered(50))
        h.run(1)
        let before = h.engine.persistedState(position: 0).revisions
        h.run(30)  // three track ends
        #expect(h.status.index == 3)
        #expect(h.engine.persistedState(position: 0).revisions == before)
    }

    @Test func installingAnEditAtATrackChangeCountsOnce() throws {
        var h = Harness()
        try h.add(Self.numbered(5))
        h.run(1)
        try h.add(Self.numbered(2))  // the collection is modified: installed at the next change
        let edited = try #require(h.engine.persistedState(position: 0).revisions)
        h.run(10)
        let installed = try #require(h.engine.persistedState(position: 0).revisions)
        #expect(installed.installed != edited.installed)
        #expect(installed.collection == edited.collection)
        h.run(10)
        #expect(h.engine.persistedState(position: 0).revisions == installed)
        #expect(h.status.index == 2)
    }

    @Test func theIndexFollowsJumpsEditsAndConsume() throws {
        var h = Harness()
        try h.add(Self.numbered(20))
        try h.act { try $0.jump(index: 12, now: $1, position: $2) }
        #expect(h.status.index == 12)
        h.run(10)
        #expect(h.status.index == 13)
        // Entries removed and added before the playing one move it.
        try h.act { try $0.remove(index: 0, now: $1, position: $2) }
        try h.act { try $0.remove(index: 0, now: $1, position: $2) }
        try h.add(Self.numbered(3), at: 0)  // 21 entries
        h.engine.refreshUpcoming()
        #expect(h.status.index == 14)
        #expect(h.status.entry == h.engine.queue.entries[14])
        // Without the refresh a stale hint is only a hint: the index is still right.
        try h.act { try $0.move(from: 0, to: 19, now: $1, position: $2) }
        #expect(h.status.index == 13)
        #expect(h.status.entry == h.engine.queue.entries[13])
        h.act { $0.setConsume(true, now: $1, position: $2) }
        h.run(10)
        #expect(h.engine.queue.entries.count == 20)
        #expect(h.status.index == 13)
        #expect(h.status.entry == h.engine.queue.entries[13])
    }

    @Test func theIndexIsNilOnceThePlayingEntryLeftTheCollection() throws {
        var h = Harness()
        try h.add(Self.numbered(4))
        h.run(1)
        h.act { $0.clear(now: $1, position: $2) }
        h.engine.refreshUpcoming()
        #expect(h.status.entry != nil)
        #expect(h.status.index == nil)
    }
}
