import Foundation
import QPlayEngine
import QPlayModel
import Testing

/// What a second frontend (MPD's protocol) needs of the engine: adding at an index
/// without starting, previous without the restart rule, single, consume and the queue
/// version.
@Suite struct FrontendModeTests {
    // MARK: add at an index, without starting

    @Test func addAtAnIndexBeforeThePlayingEntryKeepsItPlayingAndItsSuccessor() throws {
        var h = Harness()
        try h.add([track("A", seconds: 10), track("B", seconds: 10)])
        h.run(2)
        let added = try h.add([track("X", seconds: 10), track("Y", seconds: 10)], at: 0)
        #expect(added.added == 2)
        #expect(added.started == false)
        #expect(added.entries == [h.entry(0), h.entry(1)])
        #expect(h.titles == ["X", "Y", "A", "B"])
        // Nothing changes for the ear: A plays on, B is still the entry after it.
        #expect(added.output == EngineOutput(audio: [], events: [.queue]))
        #expect(h.nowPlaying == "A")
        #expect(h.status.index == 2)
        #expect(h.status.next?.track.title == "B")
        h.run(8)
        #expect(h.audio.heard == ["A", "B"])
        h.run(10)
        #expect(h.status.state == .stopped)  // X and Y were before A: the queue ended after B
    }

    @Test func addAtAnIndexAfterThePlayingEntryBecomesItsSuccessor() throws {
        var h = Harness()
        try h.add([track("A", seconds: 10), track("B", seconds: 10)])
        let added = try h.add([track("X", seconds: 10)], at: 1)
        #expect(h.titles == ["A", "X", "B"])
        #expect(added.entries == [h.entry(1)])
        #expect(added.output.audio == [.setNext(h.request(3, 1))])
        #expect(h.status.next?.track.title == "X")
        h.run(20)
        #expect(h.audio.heard == ["A", "X", "B"])
    }

    @Test func addAtTheEndIndexAppendsAndPastItIsRefusedWithoutChange() throws {
        var h = Harness()
        try h.add(tracks("A", "B"))
        try h.add(tracks("C"), at: 2)
        #expect(h.titles == ["A", "B", "C"])
        let before = h.engine.queue
        #expect(throws: EngineError.self) { try h.add(tracks("D"), at: 4) }
        #expect(throws: EngineError.self) { try h.add(tracks("D"), at: -1) }
        #expect(h.engine.queue == before)
        // The refused adds used no entry ids.
        try h.add(tracks("D"))
        #expect(h.engine.queue.entries.last?.id == 4)
    }

    @Test func addToAnEmptyQueueWithoutStartingLeavesThePlayerStopped() throws {
        var h = Harness()
        let added = try h.add(tracks("A", "B"), startsWhenEmpty: false)
        #expect(added.started == false)
        #expect(added.entries == [1, 2])
        #expect(added.output.audio.isEmpty)
        #expect(h.status.state == .stopped)
        #expect(h.status.entry == nil)
        #expect(h.status.queueLength == 2)
        #expect(h.audio.heard.isEmpty)
        // play then starts the collection from its first entry.
        h.act { $0.play(now: $1, position: $2) }
        #expect(h.nowPlaying == "A")
        #expect(h.status.state == .playing)
        #expect(h.status.queueModified == false)
    }

    // MARK: previous without restart

    @Test func previousWithoutRestartingGoesBackEvenLateInTheTrack() throws {
        var h = Harness()
        try h.add(tracks("A", "B", "C"))
        h.act { $0.next(now: $1, position: $2) }
        h.run(30)
        #expect(h.nowPlaying == "B")
        h.act { $0.previous(now: $1, position: $2, restarting: false) }
        #expect(h.nowPlaying == "A")
        #expect(h.audio.heard == ["A", "B", "A"])

        // qplay's own previous still restarts after 3 s.
        h.act { $0.next(now: $1, position: $2) }
        h.run(30)
        h.act { $0.previous(now: $1, position: $2) }
        #expect(h.nowPlaying == "B")
        #expect(h.audio.heard == ["A", "B", "A", "B", "B"])
    }

    @Test func previousWithoutRestartingOnTheFirstEntryRestartsIt() throws {
        var h = Harness()
        try h.add(tracks("A", "B"))
        h.run(30)
        h.act { $0.previous(now: $1, position: $2, restarting: false) }
        #expect(h.nowPlaying == "A")
        #expect(h.position == 0)
        #expect(h.audio.heard == ["A", "A"])
    }

    // MARK: single

    @Test func singleStopsAfterTheCurrentTrackWithoutRequestingTheNext() throws {
        var h = Harness()
        try h.add([track("A", seconds: 10), track("B", seconds: 10), track("C", seconds: 10)])
        #expect(h.audio.successor?.entry.track.title == "B")
        let set = h.act { $0.setSingle(true, now: $1, position: $2) }
        #expect(set.audio == [.setNext(nil)])
        #expect(set.events == [.player])
        #expect(h.status.single)
        #expect(h.audio.successor == nil)
        h.run(15)
        #expect(h.audio.heard == ["A"])
        let status = h.status
        #expect(status.state == .stopped)
        // The entry that would have followed is now-playing, for play to start.
        #expect(status.entry?.track.title == "B")
        #expect(status.index == 1)
        h.act { $0.play(now: $1, position: $2) }
        #expect(h.audio.heard == ["A", "B"])
        #expect(h.audio.successor == nil)
        h.run(15)
        #expect(h.audio.heard == ["A", "B"])
        #expect(h.nowPlaying == "C")
        #expect(h.status.state == .stopped)
    }

    @Test func singleOnTheLastEntryEndsTheQueue() throws {
        var h = Harness()
        try h.add([track("A", seconds: 10)])
        h.act { $0.setSingle(true, now: $1, position: $2) }
        h.run(15)
        #expect(h.status.state == .stopped)
        #expect(h.status.entry == nil)
    }

    @Test func singleLeavesRepeatOneAndNextAlone() throws {
        var h = Harness()
        try h.add([track("A", seconds: 10), track("B", seconds: 10)])
        h.act { $0.setSingle(true, now: $1, position: $2) }
        h.act { $0.setRepeat(.one, now: $1, position: $2) }
        #expect(h.status.next?.track.title == "A")
        h.run(25)
        #expect(h.audio.heard == ["A", "A", "A"])
        #expect(h.status.state == .playing)
        h.act { $0.setRepeat(.off, now: $1, position: $2) }
        // next is a skip, not a track end: playback goes on, and stops after B.
        h.act { $0.next(now: $1, position: $2) }
        #expect(h.nowPlaying == "B")
        #expect(h.status.state == .playing)
        h.run(15)
        #expect(h.audio.heard == ["A", "A", "A", "B"])
        #expect(h.status.state == .stopped)
    }

    @Test func singleTurnedOffAgainAnnouncesTheSuccessor() throws {
        var h = Harness()
        try h.add([track("A", seconds: 10), track("B", seconds: 10)])
        h.act { $0.setSingle(true, now: $1, position: $2) }
        let off = h.act { $0.setSingle(false, now: $1, position: $2) }
        #expect(Harness.announced(off)??.entry.track.title == "B")
        h.run(15)
        #expect(h.audio.heard == ["A", "B"])
    }

    @Test func aSuccessorThatStartsJustAfterSingleWasTurnedOnIsStopped() throws {
        var h = Harness()
        try h.add([track("A", seconds: 10), track("B", seconds: 10), track("C", seconds: 10)])
        let successor = try #require(h.audio.successor)
        _ = h.engine.setSingle(true, now: h.clock.now, position: h.position)  // not delivered yet
        let output = h.engine.audioStarted(token: successor.token, now: h.clock.now)
        #expect(output.audio.contains(.stop))
        #expect(h.engine.status(position: 0).state == .stopped)
        #expect(h.engine.status(position: 0).entry?.track.title == "B")
    }

    // MARK: consume

    @Test func consumeRemovesTheEntryThatEndedAndTheSkippedOne() throws {
        var h = Harness()
        try h.add([track("A", seconds: 10), track("B", seconds: 10), track("C", seconds: 10), track("D", seconds: 10)])
        h.act { $0.setConsume(true, now: $1, position: $2) }
        #expect(h.status.consume)
        let version = h.engine.queue.version
        h.run(12)  // A ends, B plays
        #expect(h.titles == ["B", "C", "D"])
        #expect(h.nowPlaying == "B")
        #expect(h.status.index == 0)
        #expect(h.status.queueModified == false)
        #expect(h.engine.queue.version == version + 1)
        h.act { $0.next(now: $1, position: $2) }  // B skipped
        #expect(h.titles == ["C", "D"])
        #expect(h.nowPlaying == "C")
        // previous and jump keep the entry they leave (as MPD).
        h.act { $0.previous(now: $1, position: $2, restarting: false) }
        #expect(h.titles == ["C", "D"])
        try h.act { try $0.jump(index: 1, now: $1, position: $2) }
        #expect(h.titles == ["C", "D"])
        #expect(h.nowPlaying == "D")
        h.run(12)  // D, the last, ends: consumed, the queue ends
        #expect(h.titles == ["C"])
        #expect(h.status.state == .stopped)
        #expect(h.status.entry == nil)
        #expect(h.audio.heard == ["A", "B", "C", "C", "D"])  // previous on the first entry restarted C
    }

    @Test func consumeWithAnEditPendingInstallsTheEditAndRemovesTheEntry() throws {
        var h = Harness()
        try h.add([track("A", seconds: 10), track("B", seconds: 10)])
        h.act { $0.setConsume(true, now: $1, position: $2) }
        try h.add([track("C", seconds: 10)], at: 1)
        #expect(h.status.queueModified)
        h.run(12)
        #expect(h.titles == ["C", "B"])
        #expect(h.nowPlaying == "C")
        #expect(h.status.queueModified == false)
        h.run(20)
        #expect(h.titles.isEmpty)
        #expect(h.audio.heard == ["A", "C", "B"])
    }

    @Test func consumeWithRepeatAllPlaysEachEntryOnceThenStops() throws {
        var h = Harness()
        try h.add([track("A", seconds: 10), track("B", seconds: 10), track("C", seconds: 10)])
        h.act { $0.setRepeat(.all, now: $1, position: $2) }
        h.act { $0.next(now: $1, position: $2) }  // A skipped without consume: it stays
        h.act { $0.setConsume(true, now: $1, position: $2) }
        h.run(25)  // B and C end; repeat all wraps around to A
        #expect(h.titles == ["A"])
        #expect(h.nowPlaying == "A")
        h.run(12)  // A wraps around to itself: consumed, nothing is left
        #expect(h.titles.isEmpty)
        #expect(h.status.state == .stopped)
        #expect(h.audio.heard == ["A", "B", "C", "A"])
    }

    @Test func consumeWithRepeatOneKeepsTheRepeatedEntryUntilItIsSkipped() throws {
        var h = Harness()
        try h.add([track("A", seconds: 10), track("B", seconds: 10)])
        h.act { $0.setConsume(true, now: $1, position: $2) }
        h.act { $0.setRepeat(.one, now: $1, position: $2) }
        h.run(25)
        #expect(h.titles == ["A", "B"])
        #expect(h.audio.heard == ["A", "A", "A"])
        h.act { $0.next(now: $1, position: $2) }
        #expect(h.titles == ["B"])
        #expect(h.nowPlaying == "B")
    }

    @Test func consumeWithShufflePlaysEveryEntryOnceAndEmptiesTheQueue() throws {
        var h = Harness()
        let names = ["A", "B", "C", "D", "E", "F"]
        try h.add(names.map { track($0, seconds: 10) })
        h.act { $0.setShuffle(true, now: $1, position: $2) }
        h.act { $0.setConsume(true, now: $1, position: $2) }
        h.act { $0.setRepeat(.all, now: $1, position: $2) }
        h.run(100)
        #expect(h.audio.heard.sorted() == names)
        #expect(h.titles.isEmpty)
        #expect(h.status.state == .stopped)
    }

    @Test func consumeWithSingleStopsAtTheNextEntryWithTheFinishedOneGone() throws {
        var h = Harness()
        try h.add([track("A", seconds: 10), track("B", seconds: 10)])
        h.act { $0.setConsume(true, now: $1, position: $2) }
        h.act { $0.setSingle(true, now: $1, position: $2) }
        h.run(12)
        #expect(h.titles == ["B"])
        #expect(h.status.state == .stopped)
        #expect(h.status.entry?.track.title == "B")
        #expect(h.audio.heard == ["A"])
    }

    // MARK: next

    @Test func nextFollowsThePlayOrderTheEditsAndRepeat() throws {
        var h = Harness()
        #expect(h.status.next == nil)
        try h.add([track("A", seconds: 10), track("B", seconds: 10)])
        #expect(h.status.next?.track.title == "B")
        h.act { $0.next(now: $1, position: $2) }
        #expect(h.status.next == nil)
        h.act { $0.setRepeat(.all, now: $1, position: $2) }
        #expect(h.status.next?.track.title == "A")
        try h.add([track("C", seconds: 10)])  // modified: what follows comes from the edit
        #expect(h.status.next?.track.title == "C")
        h.act { $0.stop(now: $1, position: $2) }
        #expect(h.status.next?.track.title == "C")
    }

    // MARK: queue version

    @Test func theVersionGrowsOnEveryEditAndNotOnInstall() throws {
        var h = Harness()
        var version = h.engine.queue.version
        func expectStep(_ grows: Bool, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
            let now = h.engine.queue.version
            #expect(now == (grows ? version + 1 : version), comment, sourceLocation: sourceLocation)
            #expect(h.status.queueVersion == now, sourceLocation: sourceLocation)
            version = now
        }
        try h.add([track("A", seconds: 10), track("B", seconds: 10), track("C", seconds: 10)])
        expectStep(true, "add (which installs at once)")
        try h.add([track("D", seconds: 10)], at: 1)
        expectStep(true, "add at an index")
        try h.act { try $0.move(from: 1, to: 3, now: $1, position: $2) }
        expectStep(true, "move")
        try h.act { try $0.move(from: 2, to: 2, now: $1, position: $2) }
        expectStep(false, "a move onto itself is no edit")
        h.run(12)
        #expect(h.status.queueModified == false)
        expectStep(false, "install at the track change")
        h.act { $0.next(now: $1, position: $2) }
        try h.act { try $0.jump(index: 0, now: $1, position: $2) }
        h.act { $0.setShuffle(true, now: $1, position: $2) }
        h.act { $0.setRepeat(.all, now: $1, position: $2) }
        h.act { $0.pause(now: $1, position: $2) }
        expectStep(false, "skips, jumps and modes are no edits")
        try h.act { try $0.remove(index: 2, now: $1, position: $2) }
        expectStep(true, "remove")
        h.act { $0.clear(now: $1, position: $2) }
        expectStep(true, "clear")
        h.act { $0.clear(now: $1, position: $2) }
        expectStep(false, "clearing an empty queue is no edit")
        #expect(throws: EngineError.noMatch) { try h.add([]) }
        expectStep(false, "a refused add")
    }

    @Test func modesAndTheVersionSurviveARestore() throws {
        var h = Harness()
        try h.add(tracks("A", "B", "C"))
        try h.act { try $0.move(from: 0, to: 2, now: $1, position: $2) }
        h.act { $0.setSingle(true, now: $1, position: $2) }
        h.act { $0.setConsume(true, now: $1, position: $2) }
        let version = h.engine.queue.version
        #expect(version == 2)

        let rows = PlayerEngine(configuration: h.engine.configuration, restoring: h.engine.persistedState(position: 5))
        let document = try JSONDecoder().decode(
            EnginePersistentState.self, from: JSONEncoder().encode(h.engine.persistentState(position: 5)))
        let fromDocument = PlayerEngine(configuration: h.engine.configuration, restoring: document)
        for restored in [rows, fromDocument] {
            let status = restored.status(position: 5)
            #expect(status.single)
            #expect(status.consume)
            #expect(status.queueVersion == version)
            #expect(restored.queue.version == version)
        }
        var next = rows
        _ = try next.add(tracks("D"), now: .zero, position: 0)
        #expect(next.queue.version == version + 1)
    }

    @Test func aDocumentSavedBeforeTheModesExistedRestoresThemOff() throws {
        var h = Harness()
        try h.add(tracks("A", "B"))
        var json = try JSONSerialization.jsonObject(
            with: JSONEncoder().encode(h.engine.persistentState(position: 0))) as! [String: Any]
        json["single"] = nil
        json["consume"] = nil
        json["queueVersion"] = nil
        let old = try JSONDecoder().decode(
            EnginePersistentState.self, from: JSONSerialization.data(withJSONObject: json))
        let restored = PlayerEngine(configuration: h.engine.configuration, restoring: old)
        #expect(restored.status(position: 0).single == false)
        #expect(restored.status(position: 0).consume == false)
        #expect(restored.queue.version == 0)
        #expect(restored.queue.entries.count == 2)
    }
}
