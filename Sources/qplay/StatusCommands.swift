import ArgumentParser
import QPlayProtocol

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show what plays.",
        discussion: """
            --format fills {title} {artist} {album} {album_artist} {track} {year} {genre} \
            {position} {duration} {remaining} {state} {icon} {volume} {index} {queue_length} \
            {file} {meter} {level_db} {chapter} ({icon}: ▶ playing, ⏸ paused); {{ and }} print literal \
            braces, any other brace or name is a usage error; when stopped it prints just a \
            newline (a status bar then hides the module).
            """)
    // Unconditional: a template may begin with '-' (`--format '- {title}'`).
    @Option(parsing: .unconditional, help: "A template with {placeholders}; {{ and }} are literal braces.")
    var format: String?
    @OptionGroup var options: ConnectionOptions

    func validate() throws {
        try checkFormat(format)
    }

    func run() throws {
        try Self.show(format: format, connection: options.connection)
    }

    static func show(format: String?, connection: Connection) throws {
        try performing {
            guard let response = try connection.run(.status) else { return }
            let status = try response.result(as: Status.self)
            if let format {
                Output.line(StatusFormat.render(format, status: status))
            } else {
                Output.lines(Listing.status(status))
            }
        }
    }
}

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Library totals and the last scan.")
    @OptionGroup var options: ConnectionOptions

    func run() throws {
        try performing {
            guard let response = try options.run(.stats) else { return }
            Output.lines(Listing.stats(try response.result(as: QPlayProtocol.Stats.self)))
        }
    }
}

struct Update: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Rescan the music directory (or PATH inside it) for changes.")
    @Argument(help: "A folder or file relative to the music directory.") var path: String?
    @Flag(help: "Wait for the scan to finish: a progress bar on a terminal, then a summary.")
    var wait = false
    @OptionGroup var options: ConnectionOptions

    func run() throws {
        try performing {
            guard wait else {
                guard try options.run(.update(path: path, wait: false)) != nil else { return }
                Output.line("scan started (`qplay update --wait` shows its progress)")
                return
            }
            let client = try options.connect()
            let showProgress = Output.stderrIsTerminal && !options.json
            if showProgress { _ = try client.send(.subscribe([.scan])) }
            let id = try client.submit(.update(path: path, wait: true))
            // A scan takes as long as the library needs: its answer has no time limit.
            client.timeout = nil
            while true {
                guard let message = try client.readMessage() else { throw ClientError.closed }
                switch message {
                case .event(.scan(let progress)) where showProgress:
                    Output.write(Array(("\r\u{1B}[K" + Listing.progressBar(progress)).utf8), to: 2)
                case .response(let response) where response.id == id:
                    if showProgress { Output.write(Array("\r\u{1B}[K".utf8), to: 2) }
                    if let error = response.error { throw Failure.refused(error) }
                    if options.json {
                        Output.bytes((response.rawResult ?? ArraySlice("{}".utf8)) + [10])
                    } else {
                        Output.line("scan done: " + Listing.scanSummary(try response.result(as: ScanTotals.self)))
                    }
                    return
                default: continue
                }
            }
        }
    }
}

/// A `--format` template that `StatusFormat` cannot fill is a usage error (exit 2).
func checkFormat(_ template: String?) throws {
    guard let template else { return }
    do {
        try StatusFormat.validate(template)
    } catch {
        throw ValidationError("--format: \(error)")
    }
}
