import QPlayEngine
import QPlayModel
import Testing

/// Tap versus hold (docs/BEHAVIOUR.md), with the fake clock (threshold 300 ms, scan 4×, max hold 30 s).
@Suite struct TapHoldTests {
    static func playing(_ names: [(String, Double)] = [("A", 180), ("B", 180), ("C", 180)]) throws -> Harness {
        var h = Harness()
        try h.add(names.map { track($0.0, seconds: $0.1) })
        return h
    }

    static func isSeekOrScan(_ command: AudioCommand) -> Bool {
        switch command {
        case .seek, .scan, .endScan: true
        default: false
        }
    }

    @Test func aPressJustUnderTheThresholdIsATapThatSkips() throws {
        var h = try Self.playing()
        let pressedAt = h.clock.now
        #expect(h.act { $0.press(.next, now: $1, position: $2) } == EngineOutput())
        #expect(h.engine.nextDeadline == pressedAt + .milliseconds(300))
        h.clock.advance(.milliseconds(299))
        #expect(h.act { $0.tick(now: $1, position: $2) } == EngineOutput())
        #expect(h.status.seeking == .none)
        let release = try h.engine.release(.next, now: h.clock.now, position: h.position)
        #expect(release.action == .skip)
        #expect(release.heldMilliseconds == 299)
        #expect(release.output.audio == [.play(h.request(3, 1), from: 0, paused: false), .setNext(h.request(4, 2))])
        #expect(!release.output.audio.contains(where: Self.isSeekOrScan))
        #expect(h.engine.nextDeadline == nil)
    }

    @Test func aPressJustOverTheThresholdScansFromTheThresholdOn() throws {
        var h = try Self.playing()
        let pressedAt = h.clock.now
        h.act { $0.press(.next, now: $1, position: $2) }
        h.clock.advance(.milliseconds(300))
        let tick = h.act { $0.tick(now: $1, position: $2) }
        #expect(tick == EngineOutput(audio: [.scan(rate: 4)], events: [.player]))
        #expect(h.status.seeking == .forward)
        #expect(h.engine.nextDeadline == pressedAt + .seconds(30))
        h.clock.advance(.milliseconds(1))
        let release = try h.engine.release(.next, now: h.clock.now, position: h.position)
        #expect(release.action == .seek)
        #expect(release.heldMilliseconds == 301)
        #expect(release.output == EngineOutput(audio: [.endScan], events: [.player]))
        #expect(h.status.seeking == .none)
        #expect(h.nowPlaying == "A")
    }

    @Test func aTwoSecondHoldScansEightSecondsAtFourTimes() throws {
        var h = try Self.playing()
        try h.act { try $0.seek(to: 10, now: $1, position: $2) }
        h.act { $0.press(.next, now: $1, position: $2) }
        h.run(0.3)  // normal playback until the threshold; the tick there starts the scan
        #expect(h.audio.scanRate == 4)
        #expect(abs(h.position - 10.3) < 1e-6)
        h.run(2)
        let release = try h.engine.release(.next, now: h.clock.now, position: h.position)
        h.send(release.output)
        #expect(release.heldMilliseconds == 2300)
        // position advance while scanning = rate × time held after the threshold
        #expect(abs(h.position - (10.3 + 4 * 2)) < 1e-6)
        h.run(1)
        #expect(abs(h.position - 19.3) < 1e-6)  // then normal playback goes on
    }

    @Test func holdingPreviousScansBackwardAndStopsAtZero() throws {
        var h = try Self.playing()
        try h.act { try $0.seek(to: 5, now: $1, position: $2) }
        h.act { $0.press(.previous, now: $1, position: $2) }
        h.run(0.3)
        #expect(h.audio.scanRate == -4)
        #expect(h.status.seeking == .backward)
        h.run(1)
        #expect(abs(h.position - 1.3) < 1e-6)
        h.run(1)
        #expect(h.position == 0)
        let release = try h.engine.release(.previous, now: h.clock.now, position: h.position)
        #expect(release.action == .seek)
        #expect(release.output.audio == [.endScan])
        #expect(h.nowPlaying == "A")
    }

    @Test func scanningForwardPastTheEndMovesOnAndKeepsScanning() throws {
        var h = try Self.playing([("A", 20), ("B", 180)])
        try h.act { try $0.seek(to: 15, now: $1, position: $2) }
        h.act { $0.press(.next, now: $1, position: $2) }
        h.run(2.3)  // 15 + 0.3 + 4 × 2 = 23.3: 3.3 s into B
        #expect(h.audio.heard == ["A", "B"])
        #expect(h.nowPlaying == "B")
        #expect(h.status.seeking == .forward)
        #expect(abs(h.position - 3.3) < 1e-6)
        let release = try h.engine.release(.next, now: h.clock.now, position: h.position)
        #expect(release.output.audio == [.endScan])
    }

    @Test(arguments: [(2.9, "A", ButtonAction.previous), (3.1, "B", .restart)])
    func previousTapWithinAndAfterThreeSeconds(position: Double, expected: String, action: ButtonAction) throws {
        var h = try Self.playing()
        try h.act { try $0.jump(index: 1, now: $1, position: $2) }
        h.act { $0.press(.previous, now: $1, position: $2) }
        h.clock.advance(.milliseconds(120))
        h.position = position  // as the audio side reports it at the release
        let release = try h.engine.release(.previous, now: h.clock.now, position: h.position)
        #expect(release.action == action)
        #expect(release.heldMilliseconds == 120)
        #expect(Harness.played(release.output)?.entry.track.title == expected)
        #expect(release.output.audio.first == .play(Harness.played(release.output)!, from: 0, paused: false))
        #expect(!release.output.audio.contains(where: Self.isSeekOrScan))
    }

    @Test func aPressNeverReleasedEndsItselfAtTheMaximumHold() throws {
        var h = try Self.playing()
        h.act { $0.press(.next, now: $1, position: $2) }
        h.run(29.9)
        #expect(h.status.seeking == .forward)
        h.run(0.2)
        #expect(h.status.seeking == .none)
        #expect(h.audio.scanRate == nil)
        #expect(h.engine.nextDeadline == nil)
        // 0.3 s playing + 29.7 s at 4× = 119.1 s into A
        #expect(abs(h.position - 119.2) < 1e-6)
        h.clock.advance(.seconds(5))
        let late = try h.engine.release(.next, now: h.clock.now, position: h.position)
        #expect(late.action == .seek)
        #expect(late.heldMilliseconds == 30000)
        #expect(late.output == EngineOutput())
        #expect(throws: EngineError.badRequest("release next without a press of it")) {
            try h.engine.release(.next, now: h.clock.now, position: 0)
        }
    }

    @Test func aReleaseWithoutAMatchingPressIsABadRequest() throws {
        var h = try Self.playing()
        #expect(throws: EngineError.badRequest("release previous without a press of it")) {
            try h.engine.release(.previous, now: h.clock.now, position: 0)
        }
        h.act { $0.press(.next, now: $1, position: $2) }
        #expect(throws: EngineError.badRequest("release previous without a press of it")) {
            try h.engine.release(.previous, now: h.clock.now, position: 0)
        }
        #expect(h.engine.nextDeadline != nil)  // the next press is still down
    }

    @Test func aHoldWhoseTickCameLateCatchesUpWithOneSeek() throws {
        var h = try Self.playing()
        h.position = 10
        h.act { $0.press(.next, now: $1, position: $2) }
        h.clock.advance(.milliseconds(2300))
        h.position = 12.3
        let release = try h.engine.release(.next, now: h.clock.now, position: h.position)
        #expect(release.action == .seek)
        #expect(release.output.audio == [.seek(12.3 + 8)])
    }

    @Test func aHoldWithNothingLoadedDoesNothing() throws {
        var h = Harness()
        h.act { $0.press(.next, now: $1, position: $2) }
        h.clock.advance(.seconds(1))
        #expect(h.act { $0.tick(now: $1, position: $2) } == EngineOutput())
        let release = try h.engine.release(.next, now: h.clock.now, position: 0)
        #expect(release.action == .seek)
        #expect(release.heldMilliseconds == 1000)
        #expect(release.output == EngineOutput())
    }

    @Test func anotherCommandChangingTrackEndsTheScan() throws {
        var h = try Self.playing()
        h.act { $0.press(.next, now: $1, position: $2) }
        h.run(1)
        let next = h.act { $0.next(now: $1, position: $2) }
        #expect(next.audio.first == .endScan)
        #expect(h.status.seeking == .none)
        let release = try h.engine.release(.next, now: h.clock.now, position: h.position)
        #expect(release.action == .seek)
        #expect(release.output == EngineOutput())
        #expect(h.nowPlaying == "B")
    }

    @Test func theThresholdAndRateAreConfigurable() throws {
        var h = Harness(EngineConfiguration(tapThreshold: .milliseconds(500), scanRate: 8, shuffleSeed: 1))
        try h.add(tracks("A", "B"))
        h.act { $0.press(.next, now: $1, position: $2) }
        h.clock.advance(.milliseconds(450))
        #expect(h.act { $0.tick(now: $1, position: $2) } == EngineOutput())
        h.clock.advance(.milliseconds(50))
        #expect(h.act { $0.tick(now: $1, position: $2) }.audio == [.scan(rate: 8)])
    }
}
