import QPlayEngine
import Testing

/// The engine's side of the conversation with the audio side: tokens, the gapless
/// successor, late reports and failures.
@Suite struct AudioReportTests {
    @Test func theAnnouncedSuccessorStartingIsTheTrackChange() throws {
        var h = Harness()
        try h.add(tracks("A", "B", "C"))
        let output = h.engine.audioStarted(token: 2, now: h.clock.now)
        // A played to its end: a play of it.
        #expect(
            output
                == EngineOutput(
                    audio: [.setNext(h.request(3, 2))], events: [.player],
                    listens: [ListenCount(track: track("A").id, kind: .play)]))
        #expect(h.nowPlaying == "B")
        // the late confirmation of the play that B replaced changes nothing
        #expect(h.engine.audioStarted(token: 1, now: h.clock.now) == EngineOutput())
        #expect(h.engine.audioFinished(token: 1, now: h.clock.now) == EngineOutput())
        #expect(h.nowPlaying == "B")
    }

    @Test func aReplacedSuccessorThatStartedAnywayIsCorrected() throws {
        var h = Harness()
        try h.add(tracks("A", "B", "C"))  // play A (1), setNext B (2)
        try h.act { try $0.move(from: 2, to: 1, now: $1, position: $2) }  // setNext C (3)
        // The audio side had already started B when the replacement arrived.
        let output = h.engine.audioStarted(token: 2, now: h.clock.now)
        #expect(output.audio == [.play(h.request(4, 1), from: 0, paused: false), .setNext(h.request(5, 2))])
        #expect(h.nowPlaying == "C")
        #expect(h.status.queueModified == false)
    }

    @Test func aSuccessorReplacedAndPutBackIsAdoptedWithoutARestart() throws {
        var h = Harness()
        try h.add(tracks("A", "B", "C"))  // setNext B (2)
        try h.act { try $0.move(from: 2, to: 1, now: $1, position: $2) }  // setNext C (3)
        try h.act { try $0.move(from: 2, to: 1, now: $1, position: $2) }  // setNext B (4)
        #expect(h.titles == ["A", "B", "C"])
        let output = h.engine.audioStarted(token: 2, now: h.clock.now)
        // B is what should play: no play, only the audio side's successor slot is refilled.
        #expect(output.audio == [.setNext(h.request(5, 2))])
        #expect(h.nowPlaying == "B")
    }

    @Test func finishedWithoutASuccessorTakingOverPlaysTheNextEntry() throws {
        var h = Harness()
        try h.add(tracks("A", "B"))
        let output = h.engine.audioFinished(token: 1, now: h.clock.now)
        #expect(
            output
                == EngineOutput(
                    audio: [.play(h.request(3, 1), from: 0, paused: false), .setNext(nil)], events: [.player],
                    listens: [ListenCount(track: track("A").id, kind: .play)]))
    }

    @Test func aFailedEntryIsSkippedAndReported() throws {
        var h = Harness()
        try h.add(tracks("A", "B", "C"))
        let a = h.engine.queue.entries[0]
        let output = h.engine.audioFailed(token: 1, reason: "no MPEG data", now: h.clock.now)
        #expect(output.events == [.playbackFailed(entry: a, reason: "no MPEG data"), .player])
        #expect(output.audio == [.play(h.request(3, 1), from: 0, paused: false), .setNext(h.request(4, 2))])
        #expect(h.status.lastError == "no MPEG data")
        #expect(h.nowPlaying == "B")
        _ = h.engine.audioStarted(token: 3, now: h.clock.now)
        #expect(h.status.lastError == nil)
    }

    @Test func aFailedSuccessorEndsTheTrackAndIsSkippedWithAPlay() throws {
        var h = Harness()
        try h.add(tracks("A", "B", "C"))  // play A (1), setNext B (2)
        let b = h.engine.queue.entries[1]
        // The audio side reports a successor's failure when the stream reaches it: A is
        // over, the audio side plays nothing more, and the engine alone says what follows.
        let output = h.engine.audioFailed(token: 2, reason: "truncated", now: h.clock.now)
        #expect(output.audio == [.play(h.request(3, 2), from: 0, paused: false), .setNext(nil)])
        #expect(output.events.contains(.playbackFailed(entry: b, reason: "truncated")))
        #expect(h.nowPlaying == "C")
        // A late report about A changes nothing.
        #expect(h.engine.audioFinished(token: 1, now: h.clock.now) == EngineOutput())
        #expect(h.nowPlaying == "C")
    }

    @Test func aReplacedSuccessorThatFailedAnywayPlaysWhatTheEngineExpects() throws {
        var h = Harness()
        try h.add(tracks("A", "B", "C"))  // play A (1), setNext B (2)
        try h.act { try $0.move(from: 2, to: 1, now: $1, position: $2) }  // setNext C (3)
        // The stream reached B and B failed before the replacement arrived.
        let output = h.engine.audioFailed(token: 2, reason: "file not found", now: h.clock.now)
        #expect(output.audio == [.play(h.request(4, 1), from: 0, paused: false), .setNext(h.request(5, 2))])
        // B was not what the engine meant to play: no skip is reported for it.
        #expect(!output.events.contains { if case .playbackFailed = $0 { true } else { false } })
        #expect(h.nowPlaying == "C")
        #expect(h.status.queueModified == false)
    }

    @Test func aSuccessorThatFinishedBeforeItsStartWasReadIsAdoptedThenEnded() throws {
        var h = Harness()
        try h.add(tracks("A", "B", "C"))  // play A (1), setNext B (2)
        let output = h.engine.audioFinished(token: 2, now: h.clock.now)
        // B was started and ended: C plays, nothing waits for a report that cannot come.
        #expect(h.nowPlaying == "C")
        #expect(Harness.played(output)?.entry.track.title == "C")
    }

    @Test func aFailureReportAboutAReplacedPlayChangesNothing() throws {
        var h = Harness()
        try h.add(tracks("A", "B", "C"))  // play A (1), setNext B (2)
        h.act { $0.next(now: $1, position: $2) }  // play B (3), setNext C (4)
        #expect(h.engine.audioFailed(token: 1, reason: "late", now: h.clock.now) == EngineOutput())
        #expect(h.engine.audioFailed(token: 2, reason: "late", now: h.clock.now) == EngineOutput())
        #expect(h.nowPlaying == "B")
        #expect(h.status.lastError == nil)
    }

    @Test func aQueueOfBrokenEntriesEndsEvenWithRepeatAll() throws {
        var h = Harness()
        try h.add(tracks("A", "B"))
        h.act { $0.setRepeat(.all, now: $1, position: $2) }
        var output = h.engine.audioFailed(token: 1, reason: "bad", now: h.clock.now)
        let b = try #require(Harness.played(output))
        #expect(b.entry.track.title == "B")
        output = h.engine.audioFailed(token: b.token, reason: "bad", now: h.clock.now)
        #expect(h.status.state == .stopped)
        #expect(Harness.played(output) == nil)
    }

    @Test func attachingAFreshAudioSideLoadsTheEngineState() throws {
        var h = Harness()
        try h.add(tracks("A", "B"))
        h.act { $0.setVolume(70, now: $1, position: $2) }
        h.act { $0.pause(now: $1, position: $2) }
        let output = h.engine.attachAudio(position: 12)
        #expect(output.audio == [
            .volume(70), .play(h.request(3, 0), from: 12, paused: true), .setNext(h.request(4, 1)),
        ])
    }
}
