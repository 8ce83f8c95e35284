import QPlayEngine
import QPlayModel
import Testing

/// The sleep timer (docs/BEHAVIOUR.md, Timers, bookmarks and resume points) with the fake clock: wall time, fade, pause, restore.
@Suite struct SleepTimerTests {
    static func playing(fade: Double = 10) throws -> Harness {
        var h = Harness(EngineConfiguration(shuffleSeed: 42, sleepFade: fade))
        try h.add([track("A", seconds: 600), track("B", seconds: 600), track("C", seconds: 600)])
        return h
    }

    @Test func itFadesAtTheDeadlineThenPausesAndRestoresTheGain() throws {
        var h = try Self.playing()
        let setAt = h.clock.now
        let output = try h.act { try $0.setSleep(after: 60, now: $1, position: $2) }
        #expect(output.events == [.player])
        #expect(h.engine.nextDeadline == setAt + .seconds(60))
        #expect(h.engine.sleepRemaining(now: h.clock.now, position: h.position) == 60)
        h.run(30)
        #expect(h.engine.sleepRemaining(now: h.clock.now, position: h.position) == 30)
        h.run(30)
        // Expired: the fade runs, still playing.
        #expect(h.audio.fade.to == 0 && h.audio.fade.over == 10)
        #expect(h.status.state == .playing)
        #expect(h.engine.sleepRemaining(now: h.clock.now, position: h.position) == 0)
        h.run(9.9)
        #expect(h.status.state == .playing)
        h.run(0.1)
        // The audio side wrote the fade's end.
        h.act { $0.audioFadeEnded(now: $1, position: $2) }
        #expect(h.status.state == .paused)
        #expect(h.audio.paused)
        #expect(h.audio.fade.to == 1 && h.audio.fade.over == 0)
        #expect(h.status.volume == 100)
        #expect(h.engine.sleepTimer == nil)
        #expect(h.engine.nextDeadline == nil)
    }

    @Test func withoutTheAudioSidesReportTheFadeEndsAtItsDeadline() throws {
        var h = try Self.playing(fade: 3)
        try h.act { try $0.setSleep(after: 1, now: $1, position: $2) }
        h.run(1)
        #expect(h.audio.fade.to == 0)
        h.run(4.9)
        #expect(h.status.state == .playing)
        h.run(0.2)
        #expect(h.status.state == .paused)
        #expect(h.audio.fade.to == 1)
        // A later report (or an alarm's fade-in ending) changes nothing.
        #expect(h.act { $0.audioFadeEnded(now: $1, position: $2) } == EngineOutput())
    }

    @Test func pausingByHandKeepsTheTimerCounting() throws {
        var h = try Self.playing()
        try h.act { try $0.setSleep(after: 60, now: $1, position: $2) }
        h.run(20)
        h.act { $0.pause(now: $1, position: $2) }
        h.run(20)
        #expect(h.engine.sleepRemaining(now: h.clock.now, position: h.position) == 20)
        h.act { $0.play(now: $1, position: $2) }
        h.run(20)
        // 60 s of wall time, 40 of them playing: it fires now.
        #expect(h.audio.fade.to == 0)
        h.run(12)
        #expect(h.status.state == .paused)
    }

    @Test func aTimerExpiringWhilePausedJustEnds() throws {
        var h = try Self.playing()
        try h.act { try $0.setSleep(after: 5, now: $1, position: $2) }
        h.act { $0.pause(now: $1, position: $2) }
        h.run(6)
        #expect(h.engine.sleepTimer == nil)
        #expect(h.audio.fade.to == 1)
        #expect(h.status.state == .paused)
    }

    @Test func cancelledItNeverFires() throws {
        var h = try Self.playing()
        try h.act { try $0.setSleep(after: 5, now: $1, position: $2) }
        h.run(2)
        h.act { $0.cancelSleep(now: $1, position: $2) }
        #expect(h.engine.nextDeadline == nil)
        h.run(30)
        #expect(h.status.state == .playing)
        #expect(h.audio.fade.to == 1)
    }

    @Test func cancellingDuringTheFadeRestoresAtOnce() throws {
        var h = try Self.playing()
        try h.act { try $0.setSleep(after: 1, now: $1, position: $2) }
        h.run(3)
        #expect(h.audio.fade.to == 0)
        h.act { $0.cancelSleep(now: $1, position: $2) }
        #expect(h.audio.fade.to == 1 && h.audio.fade.over == 0)
        h.run(20)
        #expect(h.status.state == .playing)
    }

    @Test func noFadeConfiguredPausesAtTheDeadline() throws {
        var h = try Self.playing(fade: 0)
        try h.act { try $0.setSleep(after: 4, now: $1, position: $2) }
        h.run(4)
        #expect(h.status.state == .paused)
        #expect(h.audio.fade.to == 1)
    }

    @Test func endOfTrackPausesOnTheNextEntryAtZeroWithNothingOfItRequested() throws {
        var h = try Self.playing()
        h.run(590)
        let output = h.act { $0.setSleepAtTrackEnd(now: $1, position: $2) }
        // The gapless successor is withdrawn: the audio side has nothing to go on with.
        #expect(Harness.announced(output) == .some(nil))
        #expect(h.engine.sleepRemaining(now: h.clock.now, position: h.position) == 10)
        h.run(15)
        #expect(h.status.state == .paused)
        #expect(h.nowPlaying == "B")
        #expect(h.status.position == 0)
        #expect(h.audio.paused)
        #expect(h.audio.position == 0)
        #expect(h.engine.sleepTimer == nil)
        // Paused at B: play resumes B from its start, with C as its successor again.
        h.act { $0.play(now: $1, position: $2) }
        h.run(1)
        #expect(h.nowPlaying == "B")
        #expect(h.audio.successor?.entry.track.title == "C")
    }

    @Test func endOfTrackCancelledGivesTheSuccessorBack() throws {
        var h = try Self.playing()
        h.act { $0.setSleepAtTrackEnd(now: $1, position: $2) }
        let output = h.act { $0.cancelSleep(now: $1, position: $2) }
        #expect(Harness.announced(output)??.entry.track.title == "B")
        h.run(610)
        #expect(h.status.state == .playing)
        #expect(h.nowPlaying == "B")
    }

    @Test func badDurationsAreRefused() throws {
        var h = try Self.playing()
        for seconds: Double in [0, -1, .nan, .infinity, 8 * 86_400] {
            #expect(throws: EngineError.self) { try h.engine.setSleep(after: seconds, now: h.clock.now, position: 0) }
        }
    }
}
