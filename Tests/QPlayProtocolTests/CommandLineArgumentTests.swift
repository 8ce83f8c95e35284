import QPlayProtocol
import Testing

/// The client-side reading of qplay's command line: leading connection options, the
/// nearest subcommand to a typo, and alarm times.
@Suite struct CommandLineArgumentTests {
    @Test func leadingConnectionOptionsMoveAfterTheSubcommand() {
        #expect(LeadingOptions.moved(["--socket", "/s", "status"]) == ["status", "--socket", "/s"])
        #expect(
            LeadingOptions.moved(["--json", "--timeout", "2", "seek", "-10"])
                == ["seek", "--json", "--timeout", "2", "-10"])
        #expect(LeadingOptions.moved(["--socket=/s", "queue"]) == ["queue", "--socket=/s"])
        #expect(
            LeadingOptions.moved(["--socket", "/s", "status", "--format", "{title}"])
                == ["status", "--socket", "/s", "--format", "{title}"])
    }

    @Test func otherCommandLinesStayAsTyped() {
        for arguments in [
            [], ["status"], ["status", "--socket", "/s"], ["--socket", "/s"], ["--socket"], ["--socket", "/s", "--help"],
            ["--socket", "/s", "help", "status"], ["--version"], ["--bogus", "status"], ["seek", "-10"],
        ] {
            #expect(LeadingOptions.moved(arguments) == arguments, "\(arguments)")
        }
    }

    @Test func nearestSubcommand() {
        let names = ["status", "stats", "search", "next", "prev", "play", "pause", "queue", "alarm", "alarms"]
        #expect(NearestName.suggestion(for: "stauts", among: names) == "status")
        #expect(NearestName.suggestion(for: "stat", among: names) == "stats")
        #expect(NearestName.suggestion(for: "nxet", among: names) == "next")
        #expect(NearestName.suggestion(for: "Pley", among: names) == "play")
        #expect(NearestName.suggestion(for: "serch", among: names) == "search")
        #expect(NearestName.suggestion(for: "frobnicate", among: names) == nil)
        #expect(NearestName.suggestion(for: "xy", among: names) == nil)
        #expect(NearestName.suggestion(for: "", among: names) == nil)
    }

    @Test func alarmTimes() {
        for valid in ["00:00", "07:00", "23:59", "07:00:30", "23:59:59"] {
            #expect(AlarmTime.isValid(valid), "\(valid)")
        }
        for invalid in ["25:00", "24:00", "12:60", "07:00:60", "7:00", "07", "07:00:00:00", "ab:cd", "", "07:0٣", "-1:00"] {
            #expect(!AlarmTime.isValid(invalid), "\(invalid)")
        }
    }
}
