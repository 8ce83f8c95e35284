import QPlayEngine
import Testing

@Suite struct TransportTests {
    @Test func pauseResumeToggleAndStopSendExactCommands() throws {
        var h = Harness()
        try h.add(tracks("A", "B"))
        #expect(h.act { $0.pause(now: $1, position: $2) } == EngineOutput(audio: [.pause], events: [.player]))
        #expect(h.status.state == .paused)
        #expect(h.act { $0.pause(now: $1, position: $2) } == EngineOutput())
        #expect(h.act { $0.toggle(now: $1, position: $2) } == EngineOutput(audio: [.resume], events: [.player]))
        #expect(h.act { $0.play(now: $1, position: $2) } == EngineOutput())
        #expect(h.act { $0.toggle(now: $1, position: $2) }.audio == [.pause])
        #expect(h.act { $0.play(now: $1, position: $2) }.audio == [.resume])

        #expect(h.act { $0.stop(now: $1, position: $2) } == EngineOutput(audio: [.stop], events: [.player]))
        #expect(h.status.state == .stopped)
        #expect(h.status.entry?.track.title == "A")  // stop keeps the now-playing entry
        #expect(h.status.position == 0)
        let again = h.act { $0.play(now: $1, position: $2) }
        #expect(again.audio == [.play(h.request(3, 0), from: 0, paused: false), .setNext(h.request(4, 1))])
        #expect(h.status.state == .playing)
    }

    @Test func commandsOnNothingDoNothing() throws {
        var h = Harness()
        #expect(h.act { $0.play(now: $1, position: $2) } == EngineOutput())
        #expect(h.act { $0.toggle(now: $1, position: $2) } == EngineOutput())
        #expect(h.act { $0.next(now: $1, position: $2) } == EngineOutput())
        #expect(h.act { $0.previous(now: $1, position: $2) } == EngineOutput())
        #expect(h.act { $0.stop(now: $1, position: $2) } == EngineOutput())
        #expect(throws: EngineError.badRequest("nothing is playing")) {
            try h.engine.seek(to: 3, now: h.clock.now, position: 0)
        }
        #expect(h.status.state == .stopped)
    }

    @Test func theQueueEndsStoppedWithNothingPlayingAndTheQueueKept() throws {
        var h = Harness()
        try h.add([track("A", seconds: 4), track("B", seconds: 4)])
        h.run(7.5)
        #expect(h.audio.heard == ["A", "B"])
        #expect(h.nowPlaying == "B")
        h.run(1)
        #expect(h.status.state == .stopped)
        #expect(h.status.entry == nil)
        #expect(h.status.index == nil)
        #expect(h.titles == ["A", "B"])
        // play starts the queue again from its first entry
        let output = h.act { $0.play(now: $1, position: $2) }
        #expect(Harness.played(output)?.entry.track.title == "A")
        #expect(h.status.state == .playing)
    }

    @Test func nextOnTheLastEntryWithoutRepeatEndsTheQueue() throws {
        var h = Harness()
        try h.add(tracks("A"))
        let output = h.act { $0.next(now: $1, position: $2) }
        #expect(output == EngineOutput(audio: [.stop], events: [.player]))
        #expect(h.status.state == .stopped)
        #expect(h.status.entry == nil)
    }

    @Test func nextWhilePausedStaysPaused() throws {
        var h = Harness()
        try h.add(tracks("A", "B"))
        h.act { $0.pause(now: $1, position: $2) }
        let output = h.act { $0.next(now: $1, position: $2) }
        #expect(output.audio == [.play(h.request(3, 1), from: 0, paused: true), .setNext(nil)])
        #expect(h.status.state == .paused)
    }

    @Test(arguments: [(2.9, "A"), (3.0, "A"), (3.1, "B")])
    func previousWithinAndAfterThreeSeconds(position: Double, expected: String) throws {
        var h = Harness()
        try h.add(tracks("A", "B", "C"))
        try h.act { try $0.jump(index: 1, now: $1, position: $2) }
        h.position = position
        let output = h.act { $0.previous(now: $1, position: $2) }
        #expect(output.audio.first == .play(Harness.played(output)!, from: 0, paused: false))
        #expect(h.nowPlaying == expected)
        #expect(!output.audio.contains { if case .seek = $0 { true } else { false } })
    }

    @Test func previousOnTheFirstEntryRestartsIt() throws {
        var h = Harness()
        try h.add(tracks("A", "B"))
        h.position = 1
        let output = h.act { $0.previous(now: $1, position: $2) }
        #expect(output.audio == [.play(h.request(3, 0), from: 0, paused: false), .setNext(h.request(4, 1))])
        #expect(h.nowPlaying == "A")
    }

    @Test func seekIsClampedToTheTrack() throws {
        var h = Harness()
        try h.add([track("A", seconds: 180)])
        #expect(try h.act { try $0.seek(to: 500, now: $1, position: $2) } == EngineOutput(audio: [.seek(180)], events: [.player]))
        #expect(try h.act { try $0.seek(to: -3, now: $1, position: $2) }.audio == [.seek(0)])
        #expect(try h.act { try $0.seek(to: 42.5, now: $1, position: $2) }.audio == [.seek(42.5)])
        h.position = 100
        #expect(try h.act { try $0.seek(by: 30, now: $1, position: $2) }.audio == [.seek(130)])
        h.position = 100
        #expect(try h.act { try $0.seek(by: -200, now: $1, position: $2) }.audio == [.seek(0)])
        h.position = 170
        #expect(try h.act { try $0.seek(by: 30, now: $1, position: $2) }.audio == [.seek(180)])
        #expect(throws: EngineError.badRequest("seek position must be a number")) {
            try h.engine.seek(to: .nan, now: h.clock.now, position: 0)
        }
    }

    @Test func volumeIsClampedAndOnlyChangesAreSent() throws {
        var h = Harness()
        #expect(h.status.volume == 100)
        #expect(h.act { $0.setVolume(150, now: $1, position: $2) } == EngineOutput())
        #expect(h.act { $0.setVolume(40, now: $1, position: $2) } == EngineOutput(audio: [.volume(40)], events: [.player]))
        #expect(h.act { $0.changeVolume(by: 15, now: $1, position: $2) }.audio == [.volume(55)])
        #expect(h.act { $0.changeVolume(by: -80, now: $1, position: $2) }.audio == [.volume(0)])
        #expect(h.act { $0.changeVolume(by: .max, now: $1, position: $2) }.audio == [.volume(100)])
        #expect(h.act { $0.setVolume(-5, now: $1, position: $2) }.audio == [.volume(0)])
        #expect(h.status.volume == 0)
        #expect(h.audio.volume == 0)
    }

    @Test func repeatOneReplaysTheTrackButNextMovesOn() throws {
        var h = Harness()
        try h.add([track("A", seconds: 5), track("B", seconds: 5)])
        let output = h.act { $0.setRepeat(.one, now: $1, position: $2) }
        #expect(output == EngineOutput(audio: [.setNext(h.request(3, 0))], events: [.player]))
        h.run(11)
        #expect(h.audio.heard == ["A", "A", "A"])
        #expect(h.status.repeatMode == .one)
        h.act { $0.next(now: $1, position: $2) }
        #expect(h.nowPlaying == "B")
        // next on the last entry with repeat on wraps around
        h.act { $0.next(now: $1, position: $2) }
        #expect(h.nowPlaying == "A")
    }

    @Test func repeatAllStartsTheQueueOver() throws {
        var h = Harness()
        try h.add([track("A", seconds: 5), track("B", seconds: 5)])
        h.act { $0.setRepeat(.all, now: $1, position: $2) }
        h.run(21)
        #expect(h.audio.heard == ["A", "B", "A", "B", "A"])
        #expect(h.status.state == .playing)
        h.act { $0.setRepeat(.off, now: $1, position: $2) }
        h.run(10)
        #expect(h.audio.heard == ["A", "B", "A", "B", "A", "B"])
        #expect(h.status.state == .stopped)
    }
}
