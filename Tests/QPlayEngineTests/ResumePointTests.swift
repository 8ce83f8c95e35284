import QPlayEngine
import QPlayModel
import Testing

/// Resume points (docs/BEHAVIOUR.md, Timers, bookmarks and resume points) with the simulated clock and audio side: long tracks start
/// where they were left, less 2 s; playing to the end forgets the point.
@Suite struct ResumePointTests {
    /// 20 minutes: past the default threshold of 600 s.
    static let long = track("L", seconds: 1200)

    static func point(_ track: Track, _ position: Double?) -> ResumePointChange {
        ResumePointChange(track: track.id, position: position)
    }

    @Test func stoppingRemembersThePositionAndPlayResumesTwoSecondsBefore() throws {
        var h = Harness()
        try h.add([Self.long, track("B")])
        h.run(300)
        let stopped = h.act { $0.stop(now: $1, position: $2) }
        #expect(stopped.resumePoints == [Self.point(Self.long, 300)])
        #expect(h.engine.resumePoint(of: Self.long) == 300)
        let again = h.act { $0.play(now: $1, position: $2) }
        guard case .play(_, let from, paused: false) = again.audio.first else {
            Issue.record("no play: \(again.audio)")
            return
        }
        #expect(from == 298)
        #expect(again.resumePoints.isEmpty)
        #expect(h.audio.position == 298)
        #expect(h.status.position == 298)
    }

    @Test func skippingAwayAndComingBackResumes() throws {
        var h = Harness()
        try h.add([Self.long, track("B")])
        h.run(100)
        let skipped = h.act { $0.next(now: $1, position: $2) }
        #expect(skipped.resumePoints == [Self.point(Self.long, 100)])
        #expect(h.nowPlaying == "B")
        h.run(1)
        h.act { $0.previous(now: $1, position: $2) }
        #expect(h.nowPlaying == "L")
        #expect(h.audio.position == 98)
        // A jump to another entry of the same track resumes too.
        try h.add([Self.long])
        h.run(50)
        try h.act { try $0.jump(index: 2, now: $1, position: $2) }
        #expect(h.audio.current?.entry.id == h.entry(2))
        #expect(h.audio.position == 146)
    }

    @Test func aTrackPlayedToItsEndForgetsItsPointAndStartsFromZero() throws {
        var h = Harness()
        try h.add([Self.long, track("B")])
        h.run(1000)
        h.act { $0.stop(now: $1, position: $2) }
        h.act { $0.play(now: $1, position: $2) }
        #expect(h.audio.position == 998)
        h.run(202)  // past the end: B joins gaplessly
        #expect(h.nowPlaying == "B")
        #expect(h.engine.resumePoint(of: Self.long) == nil)
        h.act { $0.previous(now: $1, position: $2) }
        #expect(h.nowPlaying == "L")
        #expect(h.audio.position == 0)
    }

    @Test func aResumingSuccessorIsPlayedFromItsPointNotJoinedGaplessly() throws {
        var h = Harness()
        h.engine.restoreResumePoints([Self.long.id: 500])
        let added = try h.add([track("A", seconds: 10), Self.long])
        // Nothing is prefetched: the audio side starts successors at 0.
        #expect(Harness.announced(added.output) == .some(nil))
        #expect(h.status.next?.track.title == "L")
        h.run(10)
        #expect(h.nowPlaying == "L")
        #expect(h.audio.heard == ["A", "L"])
        #expect(h.audio.position == 498)
        // The track after the long one is announced as usual.
        h.run(1)
        #expect(h.engine.queue.current == h.entry(1))
    }

    @Test func aFailedSuccessorStillMeansTheTrackBeforeItEnded() throws {
        var h = Harness()
        h.engine.restoreResumePoints([Self.long.id: 300])
        let added = try h.add([Self.long, track("B")])
        let successor = try #require(Harness.announced(added.output) ?? nil)
        let output = h.engine.audioFailed(token: successor.token, reason: "broken", now: h.clock.now)
        #expect(output.resumePoints == [Self.point(Self.long, nil)])
        #expect(h.engine.resumePoint(of: Self.long) == nil)
    }

    @Test func shortTracksNeverResume() throws {
        var h = Harness()
        try h.add([track("S", seconds: 600), track("B")])
        h.run(300)
        #expect(h.act { $0.stop(now: $1, position: $2) }.resumePoints.isEmpty)
        h.act { $0.play(now: $1, position: $2) }
        #expect(h.audio.position == 0)
        // A restored point of a track too short for the threshold is ignored.
        var restored = Harness()
        restored.engine.restoreResumePoints([track("S").id: 100])
        try restored.add([track("S", seconds: 600)])
        #expect(restored.audio.position == 0)
    }

    @Test func theThresholdComesFromTheConfiguration() throws {
        var h = Harness(EngineConfiguration(shuffleSeed: 42, resumeMinDuration: 60))
        try h.add([track("S", seconds: 90), track("B")])
        h.run(30)
        #expect(h.act { $0.next(now: $1, position: $2) }.resumePoints == [Self.point(track("S"), 30)])
        h.act { $0.previous(now: $1, position: $2) }
        #expect(h.audio.position == 28)
    }

    @Test func aPointWithinTheRewindIsForgottenAndRestartingStartsFromZero() throws {
        var h = Harness()
        h.engine.restoreResumePoints([Self.long.id: 400])
        try h.add([Self.long, track("B")])
        #expect(h.audio.position == 398)
        // A previous-tap after 3 s restarts from the beginning, whatever the point.
        h.run(10)
        h.act { $0.previous(now: $1, position: $2) }
        #expect(h.audio.position == 0)
        h.run(1.5)
        #expect(h.act { $0.next(now: $1, position: $2) }.resumePoints == [Self.point(Self.long, nil)])
        h.act { $0.previous(now: $1, position: $2) }
        #expect(h.audio.position == 0)
    }

    @Test func replacingTheQueueLeavesThePlayingTrack() throws {
        var h = Harness()
        try h.add([Self.long])
        h.run(200)
        h.act { $0.clear(now: $1, position: $2) }
        // The cleared track plays on; the new queue replaces it at once.
        let replaced = try h.add([track("B")])
        #expect(replaced.output.resumePoints == [Self.point(Self.long, 200)])
        #expect(h.nowPlaying == "B")
        try h.add([Self.long])
        try h.act { try $0.jump(index: 1, now: $1, position: $2) }
        #expect(h.audio.position == 198)
    }

    /// The queue rules' "add to an empty queue" resumes too when the track was stopped
    /// before the clear: the point taken at the stop is kept, not forgotten as if the
    /// track had been left again at the stopped position.
    @Test func stopClearAndAddingTheTrackAgainResumes() throws {
        var h = Harness()
        try h.add([Self.long])
        h.run(6.6)
        #expect(h.act { $0.stop(now: $1, position: $2) }.resumePoints == [Self.point(Self.long, 6.6)])
        h.act { $0.clear(now: $1, position: $2) }
        let added = try h.add([Self.long])
        #expect(added.started)
        #expect(added.output.resumePoints.isEmpty)
        guard case .play(_, let from, paused: false) = added.output.audio.first else {
            Issue.record("no play: \(added.output.audio)")
            return
        }
        #expect(abs(from - 4.6) < 1e-9)
        #expect(abs(h.status.position - 4.6) < 1e-9)
        #expect(h.engine.resumePoint(of: Self.long) == 6.6)
    }

    /// A jump from a stopped player to another entry keeps the stopped track's point.
    @Test func jumpingAwayFromAStoppedTrackKeepsItsPoint() throws {
        var h = Harness()
        try h.add([Self.long, track("B")])
        h.run(300)
        h.act { $0.stop(now: $1, position: $2) }
        let jumped = try h.act { try $0.jump(index: 1, now: $1, position: $2) }
        #expect(jumped.resumePoints.isEmpty)
        #expect(h.nowPlaying == "B")
        try h.act { try $0.jump(index: 0, now: $1, position: $2) }
        #expect(h.audio.position == 298)
    }

    @Test func pausedTrackChangesLoadAtThePoint() throws {
        var h = Harness()
        h.engine.restoreResumePoints([Self.long.id: 700])
        try h.add([track("A"), Self.long])
        h.act { $0.pause(now: $1, position: $2) }
        let output = h.act { $0.next(now: $1, position: $2) }
        guard case .play(let request, let from, let paused) = output.audio.first else {
            Issue.record("no play: \(output.audio)")
            return
        }
        #expect(request.entry.id == h.entry(1))
        #expect(from == 698 && paused)
    }
}
