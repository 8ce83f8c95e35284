import Foundation
import QPlayEngine
import QPlayModel
import Testing

/// When alarms ring, with an injected "now" and time zone.
@Suite struct AlarmScheduleTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let newYork = TimeZone(identifier: "America/New_York")!

    static func date(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text)!
    }

    @Test func parsesTimesOfDay() {
        #expect(AlarmSchedule(time: "07:00")?.timeText == "07:00:00")
        #expect(AlarmSchedule(time: "23:59:59")?.timeText == "23:59:59")
        for bad in ["7:00", "24:00", "12:60", "12:00:60", "12", "12:00:00:00", "ab:cd", "", "１２:００"] {
            #expect(AlarmSchedule(time: bad) == nil, "\(bad)")
        }
    }

    @Test func aOnceAlarmRingsAtTheNextOccurrence() {
        let schedule = AlarmSchedule(hour: 7, minute: 30)
        // 06:00 in Berlin (UTC+1 in November): today at 07:30.
        let now = Self.date("2026-11-27T05:00:00Z")
        #expect(schedule.nextFiring(after: now, in: Self.berlin) == Self.date("2026-11-27T06:30:00Z"))
        // 08:00: tomorrow.
        let later = Self.date("2026-11-27T07:00:00Z")
        #expect(schedule.nextFiring(after: later, in: Self.berlin) == Self.date("2026-11-28T06:30:00Z"))
        // Exactly at the time: the next day (strictly after).
        #expect(
            schedule.nextFiring(after: Self.date("2026-11-27T06:30:00Z"), in: Self.berlin)
                == Self.date("2026-11-28T06:30:00Z"))
    }

    @Test func aWeekdayAlarmSkipsTheWeekend() {
        let schedule = AlarmSchedule(hour: 7, minute: 0, days: [.mon, .tue, .wed, .thu, .fri])
        // Friday 27 November 2026, 09:00 Berlin: next is Monday 30th, 07:00 (+01:00).
        let friday = Self.date("2026-11-27T08:00:00Z")
        let next = schedule.nextFiring(after: friday, in: Self.berlin)
        #expect(next == Self.date("2026-11-30T06:00:00Z"))
        #expect(AlarmSchedule.localText(next, in: Self.berlin) == "2026-11-30T07:00:00+01:00")
    }

    @Test func aWeekdayAlarmKeepsItsWallClockTimeAcrossTheSpringChange() {
        // Europe/Berlin goes to summer time on Sunday 29 March 2026 (02:00 → 03:00).
        let schedule = AlarmSchedule(hour: 7, minute: 0, days: [.mon, .tue, .wed, .thu, .fri])
        let friday = Self.date("2026-03-27T08:00:00Z")  // Friday 09:00 +01:00
        let next = schedule.nextFiring(after: friday, in: Self.berlin)
        // Monday 30 March 07:00 is 05:00 UTC now (+02:00), not 06:00.
        #expect(next == Self.date("2026-03-30T05:00:00Z"))
        #expect(AlarmSchedule.localText(next, in: Self.berlin) == "2026-03-30T07:00:00+02:00")
        // 72 hours minus the lost hour after the Friday alarm.
        let fridayAlarm = Self.date("2026-03-27T06:00:00Z")
        #expect(next.timeIntervalSince(fridayAlarm) == 71 * 3600)
    }

    @Test func aWeekdayAlarmKeepsItsWallClockTimeAcrossTheAutumnChange() {
        // America/New_York leaves summer time on Sunday 1 November 2026 (02:00 → 01:00).
        let schedule = AlarmSchedule(hour: 6, minute: 45, days: [.mon, .fri])
        let friday = Self.date("2026-10-30T11:00:00Z")  // Friday 07:00 -04:00
        let next = schedule.nextFiring(after: friday, in: Self.newYork)
        #expect(AlarmSchedule.localText(next, in: Self.newYork) == "2026-11-02T06:45:00-05:00")
        #expect(next == Self.date("2026-11-02T11:45:00Z"))
    }

    @Test func aTimeInTheSpringGapRingsJustAfterIt() {
        // 02:30 does not exist in Berlin on 29 March 2026.
        let schedule = AlarmSchedule(hour: 2, minute: 30, days: [.sun])
        let saturday = Self.date("2026-03-28T12:00:00Z")
        let next = schedule.nextFiring(after: saturday, in: Self.berlin)
        #expect(AlarmSchedule.localText(next, in: Self.berlin) == "2026-03-29T03:30:00+02:00")
    }

    @Test func anAmbiguousAutumnTimeRingsOnce() {
        // 01:30 happens twice in New York on 1 November 2026: the first one rings, and
        // the next is a week later.
        let schedule = AlarmSchedule(hour: 1, minute: 30, days: [.sun])
        let first = schedule.nextFiring(after: Self.date("2026-10-31T12:00:00Z"), in: Self.newYork)
        #expect(AlarmSchedule.localText(first, in: Self.newYork) == "2026-11-01T01:30:00-04:00")
        let second = schedule.nextFiring(after: first, in: Self.newYork)
        #expect(AlarmSchedule.localText(second, in: Self.newYork) == "2026-11-08T01:30:00-05:00")
    }

    @Test func missedMeansMoreThanTheGraceLate() {
        let due = Self.date("2026-11-27T07:00:00Z")
        #expect(!AlarmSchedule.isMissed(due: due, now: due.addingTimeInterval(120)))
        #expect(!AlarmSchedule.isMissed(due: due, now: due.addingTimeInterval(300)))
        #expect(AlarmSchedule.isMissed(due: due, now: due.addingTimeInterval(600)))
    }

    @Test func ringingPlaysTheSelectionAfterThePlayingEntryWithAFadeIn() throws {
        var h = Harness()
        try h.add([track("A"), track("B")])
        h.act { $0.pause(now: $1, position: $2) }
        let result = h.engine.ringAlarm(
            tracks: [track("W")], volume: 40, fadeIn: 20, now: h.clock.now, position: h.position)
        h.send(result.output)
        #expect(result.skipped == nil)
        #expect(h.titles == ["A", "W", "B"])
        #expect(h.nowPlaying == "W")
        #expect(h.status.state == .playing)
        #expect(h.status.volume == 40)
        let fades = result.output.audio.filter { if case .fade = $0 { true } else { false } }
        #expect(fades == [.fade(to: 0, over: 0), .fade(to: 1, over: 20)])
        #expect(result.output.audio.first(where: { if case .fade = $0 { true } else { false } }) == .fade(to: 0, over: 0))
    }

    @Test func ringingResumesAPausedQueueFromSilenceWhereItWas() throws {
        var h = Harness()
        try h.add([track("A"), track("B")])
        h.run(30)
        h.act { $0.pause(now: $1, position: $2) }
        let result = h.engine.ringAlarm(tracks: [], volume: nil, fadeIn: 10, now: h.clock.now, position: h.position)
        h.send(result.output)
        #expect(result.output.audio == [.fade(to: 0, over: 0), .seek(30), .resume, .fade(to: 1, over: 10)])
        #expect(h.nowPlaying == "A")
        #expect(h.status.state == .playing)
    }

    @Test func ringingDoesNotInterruptPlayback() throws {
        var h = Harness()
        try h.add([track("A"), track("B")])
        let result = h.engine.ringAlarm(tracks: [track("W")], volume: 10, fadeIn: 5, now: h.clock.now, position: 0)
        #expect(result.skipped == .alreadyPlaying)
        #expect(result.output == EngineOutput())
        #expect(h.titles == ["A", "B"])
    }

    @Test func ringingWithoutSelectionResumesAStoppedQueueAtItsCurrentEntry() throws {
        var h = Harness()
        try h.add([track("A"), track("B")])
        h.act { $0.next(now: $1, position: $2) }
        h.act { $0.stop(now: $1, position: $2) }
        let result = h.engine.ringAlarm(tracks: [], volume: nil, fadeIn: 0, now: h.clock.now, position: 0)
        h.send(result.output)
        #expect(result.skipped == nil)
        #expect(h.nowPlaying == "B")
        #expect(h.status.state == .playing)
        #expect(!result.output.audio.contains { if case .fade = $0 { true } else { false } })
    }

    @Test func ringingOnAnEmptyQueueWithoutSelectionHasNothingToPlay() {
        var h = Harness()
        let result = h.engine.ringAlarm(tracks: [], volume: 50, fadeIn: 0, now: h.clock.now, position: 0)
        #expect(result.skipped == .nothingToPlay)
        #expect(result.output == EngineOutput())
    }
}
