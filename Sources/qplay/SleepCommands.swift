import ArgumentParser
import QPlayProtocol

struct SleepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sleep",
        abstract: "Pause after a while (fading out), or at the end of this track; alone, show the timer.",
        discussion: """
            WHEN: a duration such as 30m, 90s, 1h or 1h30m (a bare number is minutes); `end` \
            pauses where the current track ends (no fade); `off` cancels. The timer counts \
            wall time: pausing by hand does not stop it. At expiry the volume fades to \
            silence over sleep_fade seconds (config, default 10), playback pauses and the \
            volume returns.
            """)
    @Argument(help: "30m, 90s, 1h, end or off.") var when: String?
    @OptionGroup var options: ConnectionOptions

    func validate() throws {
        if let when, SleepArgument.parse(when) == nil {
            throw ValidationError("sleep takes a duration (30m, 90s, 1h, 1h30m), `end` or `off`; got \"\(when)\"")
        }
    }

    func run() throws {
        try performing {
            let command: Command = when.flatMap(SleepArgument.parse).map(Command.sleep) ?? .status
            guard let response = try options.run(command) else { return }
            Output.line(SleepArgument.describe(try response.result(as: Status.self).sleep))
        }
    }
}
