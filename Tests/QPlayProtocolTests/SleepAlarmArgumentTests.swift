import QPlayProtocol
import Testing

@Suite struct SleepAlarmArgumentTests {
    @Test func sleepArguments() {
        #expect(SleepArgument.parse("30m") == .after(1800))
        #expect(SleepArgument.parse("90s") == .after(90))
        #expect(SleepArgument.parse("1h") == .after(3600))
        #expect(SleepArgument.parse("1h30m") == .after(5400))
        #expect(SleepArgument.parse("1.5h") == .after(5400))
        #expect(SleepArgument.parse("45") == .after(2700))
        #expect(SleepArgument.parse("end") == .endOfTrack)
        #expect(SleepArgument.parse("off") == .cancel)
        for bad in ["", "0", "-5", "m", "10x", "1h30", "h1", "soon", "nan", "inf", "0s"] {
            #expect(SleepArgument.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func sleepDescriptions() {
        #expect(SleepArgument.describe(nil) == "no sleep timer")
        #expect(SleepArgument.describe(SleepStatus(remaining: 1799.2)) == "sleep in 30:00")
        #expect(SleepArgument.describe(SleepStatus(remaining: 0)) == "sleep timer fading out")
        #expect(
            SleepArgument.describe(SleepStatus(remaining: 61, endOfTrack: true))
                == "sleep at the end of this track (1:01 left)")
    }

    @Test func statusShowsTheTimerOnlyWhenSet() {
        var status = Status(state: .playing, output: OutputStatus(name: "null"))
        #expect(!Listing.status(status).contains { $0.contains("sleep") })
        status.sleep = SleepStatus(remaining: 600)
        #expect(Listing.status(status).contains("  sleep in 10:00"))
    }

    @Test func alarmDays() {
        #expect(AlarmDays.parse("mon-fri") == ["mon", "tue", "wed", "thu", "fri"])
        #expect(AlarmDays.parse("sat,sun") == ["sat", "sun"])
        #expect(AlarmDays.parse("fri-mon") == ["mon", "fri", "sat", "sun"])
        #expect(AlarmDays.parse("monday,wed-thu") == ["mon", "wed", "thu"])
        #expect(AlarmDays.parse("daily")?.count == 7)
        #expect(AlarmDays.parse("weekends") == ["sat", "sun"])
        for bad in ["", "mo", "someday", "mon-", "mon-tue-wed", "mon,,tue", "monx"] {
            #expect(AlarmDays.parse(bad) == nil, "\(bad)")
        }
        #expect(AlarmDays.describe([]) == "once")
        #expect(AlarmDays.describe(["mon", "tue", "wed", "thu", "fri"]) == "mon-fri")
        #expect(AlarmDays.describe(["sat", "sun"]) == "sat,sun")
        #expect(AlarmDays.describe(["mon", "wed", "thu", "fri", "sun"]) == "mon,wed-fri,sun")
        #expect(AlarmDays.describe(AlarmRequest.dayNames) == "daily")
    }

    @Test func alarmAddArgumentsAreChecked() throws {
        func parse(_ args: JSONValue) throws -> Command { try Command.parse(name: "alarm_add", args: args) }
        #expect(throws: ProtocolError.self) { try parse(.object([:])) }
        #expect(throws: ProtocolError.self) { try parse(.object(["time": .string("07:00"), "days": .array([.string("funday")])])) }
        #expect(throws: ProtocolError.self) { try parse(.object(["time": .string("07:00"), "volume": .integer(101)])) }
        #expect(throws: ProtocolError.self) { try parse(.object(["time": .string("07:00"), "fade_in": .number(-1)])) }
        #expect(throws: ProtocolError.self) {
            try parse(.object(["time": .string("07:00"), "ids": .array([.integer(1)]), "where": .array([])]))
        }
        #expect(throws: ProtocolError.self) { try parse(.object(["time": .string("07:00"), "ids": .array([])])) }
        #expect(throws: ProtocolError.self) { try parse(.object(["time": .string("07:00"), "snooze": .bool(true)])) }
        // A day named twice is refused, not merged (docs/PROTOCOL.md).
        #expect(throws: ProtocolError.badRequest("alarm_add: `days` names `mon` twice")) {
            try parse(.object(["time": .string("07:00"), "days": .array([.string("mon"), .string("tue"), .string("mon")])]))
        }
        let parsed = try parse(.object(["time": .string("07:00"), "days": .array([.string("mon"), .string("tue")])]))
        #expect(parsed == .alarmAdd(AlarmRequest(time: "07:00", days: ["mon", "tue"])))
    }
}
