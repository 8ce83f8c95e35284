import ArgumentParser
import QPlayProtocol

#if canImport(Glibc)
import Glibc
#endif

/// `qplay`: drives qplayd over its socket (README.md). Exit statuses: `ExitStatus`.
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
            (print the protocol result unchanged), also before the subcommand \
            (`qplay --socket PATH status`).
            """ + "\n\n" + ExitStatus.summary,
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
            // Artwork
            ArtCommand.self,
            // Audiobooks
            ChapterCommand.self, Chapters.self,
            // Play counts and ratings
            RateCommand.self,
            // Stored playlists
            SaveCommand.self, LoadCommand.self, PlaylistsCommand.self, PlaylistCommandLine.self, SmartCommand.self,
        ])

    static func main() {
        // A closed pipe is an error return from write(), handled where it happens.
        signal(SIGPIPE, SIG_IGN)
        Output.openStandardDescriptors()
        let arguments = LeadingOptions.moved(Array(CommandLine.arguments.dropFirst()))
        if let quick = QuickInvocation(arguments) {
            do {
                try quick.run()
            } catch {
                exit(withError: error)
            }
            return
        }
        let names = configuration.subcommands.map { $0._commandName }
        if let typed = arguments.first, !typed.hasPrefix("-"), typed != "help", !names.contains(typed) {
            var message = "Error: unknown command '\(typed)'"
            if let name = NearestName.suggestion(for: typed, among: names) { message += "; did you mean '\(name)'?" }
            usageError(message + "\nSee 'qplay --help'.")
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            // ArgumentParser's usage errors exit 64; qplay's rule is 2. Its message
            // already ends with where to find help.
            if exitCode(for: error) == .validationFailure { usageError(fullMessage(for: error)) }
            exit(withError: error)
        }
    }

    /// A usage error: the message on stderr, exit 2 (README.md, exit codes).
    static func usageError(_ message: String) -> Never {
        Output.error(message)
        Glibc.exit(ExitStatus.usage)
    }
}
