import ArgumentParser
import QPlayProtocol

#if canImport(Glibc)
import Glibc
#endif

/// `qplay`: drives qplayd over its socket (README.md). Exit codes: 0 success, 1 the daemon
/// refused (or sent a reply qplay cannot read), 2 usage error, 3 no daemon, 4 the daemon
/// did not answer in time.
@main
struct QPlay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qplay",
        abstract: "Control the qplay music daemon (qplayd).",
        discussion: """
            Queue positions are 1-based, as `qplay queue` prints them. Every subcommand takes \
            --socket PATH (else $QPLAY_SOCKET, else $XDG_RUNTIME_DIR/qplay/qplay.sock, else \
            /tmp/qplay-$UID/qplay.sock), --timeout SECONDS (how long to wait for the \
            daemon's greeting and for each answer; else $QPLAY_TIMEOUT, else 5) and --json \
            (print the protocol result unchanged).

            Exit codes: 0 success, 1 the daemon refused (or sent a reply qplay cannot read), \
            2 usage error, 3 no daemon, 4 the daemon did not answer within the timeout.
            """,
        version: QPlayVersion.current,
        subcommands: [
            StatusCommand.self, Stats.self, Search.self, Add.self, QueueCommand.self, Remove.self,
            Jump.self, Move.self, Clear.self, Play.self, Pause.self, Toggle.self, Stop.self,
            Next.self, Prev.self, Press.self, Release.self, Seek.self, Vol.self, RepeatCommand.self,
            Shuffle.self, Update.self, Watch.self, Ping.self,
            // Sleep timer and alarm clock.
            SleepCommand.self, AlarmCommand.self, AlarmsCommand.self,
            // Level meter
            Meter.self,
            // Bookmarks
            BookmarkCommand.self, Bookmarks.self,
        ])

    static func main() {
        // A closed pipe is an error return from write(), handled where it happens.
        signal(SIGPIPE, SIG_IGN)
        if let quick = QuickInvocation(Array(CommandLine.arguments.dropFirst())) {
            do {
                try quick.run()
            } catch {
                exit(withError: error)
            }
            return
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                // ArgumentParser's usage errors exit 64; qplay's rule is 2 (README.md, exit codes).
                Output.error(fullMessage(for: error))
                Output.error("See 'qplay --help'.")
                Glibc.exit(2)
            }
            exit(withError: error)
        }
    }
}
