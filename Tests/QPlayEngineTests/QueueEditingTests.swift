import QPlayEngine
import QPlayModel
import Testing

@Suite struct QueueEditingTests {
    @Test func addToAnEmptyQueueInstallsItAndPlaysTheFirstTrack() throws {
        var h = Harness()
        let result = try h.add(tracks("A", "B", "C"))
        #expect(result.added == 3)
        #expect(result.started)
        let a = QueueEntry(id: 1, track: track("A"))
        let b = QueueEntry(id: 2, track: track("B"))
        #expect(result.output.audio == [
            .play(PlaybackRequest(token: 1, entry: a), from: 0, paused: false),
            .setNext(PlaybackRequest(token: 2, entry: b)),
        ])
        #expect(result.output.events == [.queue, .player])
        let status = h.status
        #expect(status.state == .playing)
        #expect(status.entry == a)
        #expect(status.index == 0)
        #expect(status.queueLength == 3)
        #expect(status.queueModified == false)
        #expect(h.audio.heard == ["A"])
    }

    @Test func addingNothingIsNoMatchAndChangesNothing() throws {
        var h = Harness()
        #expect(throws: EngineError.noMatch) { try h.add([]) }
        #expect(h.status.state == .stopped)
        try h.add(tracks("A"))
        let before = h.engine.queue
        #expect(throws: EngineError.noMatch) { try h.add([]) }
        #expect(h.engine.queue == before)
        #expect(h.status.queueModified == false)
    }

    @Test func anAddPastTheQueueLimitIsRefusedWholeAndChangesNothing() throws {
        var h = Harness(EngineConfiguration(shuffleSeed: 42, maxQueueLength: 4))
        try h.add(tracks("A", "B", "C"))
        let before = h.engine.queue
        #expect(throws: EngineError.queueFull(limit: 4, length: 3, adding: 2)) { try h.add(tracks("D", "E")) }
        #expect(h.engine.queue == before)
        #expect(h.status.queueModified == false)
        // Up to the limit is fine; one more is not, at any place.
        try h.add(tracks("D"), at: 0)
        #expect(h.status.queueLength == 4)
        #expect(throws: EngineError.queueFull(limit: 4, length: 4, adding: 1)) { try h.add(tracks("E"), at: 2) }
        #expect(h.titles == ["D", "A", "B", "C"])
        // Room made by a removal can be used again.
        _ = try h.act { try $0.remove(index: 3, now: $1, position: $2) }
        try h.add(tracks("E"))
        #expect(h.titles == ["D", "A", "B", "E"])
    }

    @Test func theDefaultQueueLimitHoldsAHundredThousandEntries() throws {
        var h = Harness()
        #expect(EngineConfiguration().maxQueueLength >= 100_000)
        let library = (0..<1_000).map { track("T\($0)", id: TrackID($0 + 1)) }
        for _ in 0..<100 { try h.add(library) }
        #expect(h.status.queueLength == 100_000)
    }

    @Test func addWhilePlayingSetsModifiedAndTheNextTrackChangeInstalls() throws {
        var h = Harness()
        try h.add([track("A", seconds: 10), track("B", seconds: 10)])
        let added = try h.add([track("C", seconds: 10)])
        #expect(added.started == false)
        // B is still what follows A: the audio side's successor is left alone.
        #expect(added.output == EngineOutput(audio: [], events: [.queue]))
        #expect(h.status.queueModified)
        #expect(h.titles == ["A", "B", "C"])

        // Moving C before B changes what the next track change would play.
        let moved = try h.act { try $0.move(from: 2, to: 1, now: $1, position: $2) }
        #expect(moved.audio == [.setNext(h.request(3, 1))])
        #expect(h.titles == ["A", "C", "B"])

        h.run(10)  // A ends; C starts gaplessly and the collection is installed
        #expect(h.audio.heard == ["A", "C"])
        #expect(h.nowPlaying == "C")
        #expect(h.status.queueModified == false)
        #expect(h.audio.successor?.entry.track.title == "B")
        h.run(10)
        #expect(h.audio.heard == ["A", "C", "B"])
    }

    @Test func removingThePlayingEntryOfAnUnmodifiedQueueSkipsToTheNext() throws {
        var h = Harness()
        try h.add(tracks("A", "B", "C"))
        try h.act { try $0.jump(index: 1, now: $1, position: $2) }
        let playing = h.entry(1)
        let output = try h.act { try $0.remove(entry: playing, now: $1, position: $2) }
        #expect(output.audio == [.play(h.request(5, 1), from: 0, paused: false), .setNext(nil)])
        #expect(output.events == [.queue, .player])
        #expect(h.titles == ["A", "C"])
        #expect(h.nowPlaying == "C")
        #expect(h.status.index == 1)
        #expect(h.status.queueModified == false)
    }

    @Test func removingThePlayingEntryOfAModifiedQueuePlaysTheEntryAfterItInTheNewCollection() throws {
        var h = Harness()
        try h.add(tracks("A", "B", "C"))
        try h.act { try $0.jump(index: 1, now: $1, position: $2) }
        try h.add(tracks("D"))
        try h.act { try $0.move(from: 3, to: 2, now: $1, position: $2) }
        #expect(h.titles == ["A", "B", "D", "C"])
        #expect(h.status.queueModified)

        // A normal skip in the installed queue would play C; the new collection has D there.
        let output = try h.act { try $0.remove(index: 1, now: $1, position: $2) }
        #expect(Harness.played(output)?.entry.track.title == "D")
        #expect(Harness.announced(output) == .some(h.request(Harness.announced(output)!!.token, 2)))
        #expect(h.nowPlaying == "D")
        #expect(h.titles == ["A", "D", "C"])
        #expect(h.status.queueModified == false)
    }

    @Test func removingTheLastEntryWhileItPlaysStops() throws {
        var h = Harness()
        try h.add(tracks("A", "B"))
        try h.act { try $0.jump(index: 1, now: $1, position: $2) }
        let output = try h.act { try $0.remove(index: 1, now: $1, position: $2) }
        #expect(output.audio == [.stop])
        #expect(h.status.state == .stopped)
        #expect(h.status.entry == nil)
        #expect(h.titles == ["A"])
    }

    @Test func removingAnotherEntryKeepsPlayingAndUpdatesTheSuccessor() throws {
        var h = Harness()
        try h.add(tracks("A", "B", "C"))
        let output = try h.act { try $0.remove(index: 1, now: $1, position: $2) }
        #expect(output.audio == [.setNext(h.request(3, 1))])
        #expect(h.nowPlaying == "A")
        #expect(h.status.queueModified)
        #expect(throws: EngineError.notFound("no entry at index 5; the queue has 2 entries")) {
            try h.engine.remove(index: 5, now: h.clock.now, position: 0)
        }
        #expect(throws: EngineError.notFound("no entry 99 in the queue")) {
            try h.engine.remove(entry: 99, now: h.clock.now, position: 0)
        }
    }

    @Test func jumpInstallsAModifiedQueueFirst() throws {
        var h = Harness()
        try h.add(tracks("A", "B", "C"))
        try h.add(tracks("D"))
        #expect(h.status.queueModified)
        let d = h.entry(3)
        let output = try h.act { try $0.jump(entry: d, now: $1, position: $2) }
        #expect(output.audio == [.play(h.request(3, 3), from: 0, paused: false), .setNext(nil)])
        #expect(output.events == [.queue, .player])
        #expect(h.status.queueModified == false)
        #expect(h.status.index == 3)
        // D is in the installed queue now: previous goes to the entry before it.
        h.position = 1
        h.act { $0.previous(now: $1, position: $2) }
        #expect(h.nowPlaying == "C")
        #expect(throws: EngineError.notFound("no entry 42 in the queue")) {
            try h.engine.jump(entry: 42, now: h.clock.now, position: 0)
        }
    }

    @Test func duplicatesAreDistinctEntries() throws {
        var h = Harness()
        try h.add(tracks("A", "A", "B"))
        #expect(h.engine.queue.entries.map(\.id) == [1, 2, 3])
        try h.act { try $0.jump(index: 1, now: $1, position: $2) }
        #expect(h.status.entry?.id == 2)
        #expect(h.status.index == 1)
        // Removing the other copy does not touch the one that plays.
        let output = try h.act { try $0.remove(entry: 1, now: $1, position: $2) }
        #expect(Harness.played(output) == nil)
        #expect(h.status.entry?.id == 2)
        #expect(h.status.index == 0)
        #expect(h.engine.queue.current == 2)
    }

    @Test func entryIDsAreNeverReused() throws {
        var h = Harness()
        try h.add(tracks("A", "B"))
        try h.act { try $0.remove(index: 1, now: $1, position: $2) }
        try h.add(tracks("C"))
        #expect(h.engine.queue.entries.map(\.id) == [1, 3])
        h.act { $0.clear(now: $1, position: $2) }
        try h.add(tracks("D"))
        #expect(h.engine.queue.entries.map(\.id) == [4])
    }

    @Test func moveRejectsBadIndexesAndIgnoresANoOp() throws {
        var h = Harness()
        try h.add(tracks("A", "B"))
        #expect(throws: EngineError.notFound("no entry at index 2; the queue has 2 entries")) {
            try h.engine.move(from: 0, to: 2, now: h.clock.now, position: 0)
        }
        let output = try h.act { try $0.move(from: 1, to: 1, now: $1, position: $2) }
        #expect(output == EngineOutput())
        #expect(h.status.queueModified == false)
    }

    @Test func clearLetsThePlayingTrackEndThenTheQueueEnds() throws {
        var h = Harness()
        try h.add([track("A", seconds: 5), track("B", seconds: 5)])
        let output = h.act { $0.clear(now: $1, position: $2) }
        #expect(output.audio == [.setNext(nil)])
        #expect(output.events == [.queue])
        #expect(h.nowPlaying == "A")
        #expect(h.status.index == nil)
        #expect(h.status.queueLength == 0)
        h.run(5)
        #expect(h.audio.heard == ["A"])
        #expect(h.status.state == .stopped)
        #expect(h.status.entry == nil)
        #expect(h.status.queueModified == false)
    }

    @Test func addAfterClearStartsTheNewQueueAtOnce() throws {
        var h = Harness()
        try h.add(tracks("A", "B"))
        h.act { $0.clear(now: $1, position: $2) }
        let result = try h.add(tracks("C"))
        #expect(result.started)
        #expect(Harness.played(result.output)?.entry.track.title == "C")
        #expect(h.audio.heard == ["A", "C"])
        #expect(h.status.queueModified == false)
    }
}
