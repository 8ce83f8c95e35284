import ArgumentParser
import QPlayProtocol

/// How `search` and `add` pick tracks: TEXT (title contains), `--where`, `--id`.
struct TrackSelection: ParsableArguments {
    @Argument(help: "Title contains TEXT (words are joined with spaces).")
    var text: [String] = []

    @Option(
        name: .customLong("where"),
        help: ArgumentHelp(WhereExpression.help, valueName: "EXPR"))
    var expressions: [String] = []

    func predicates() throws -> [Predicate] {
        try Self.predicates(text: text, expressions: expressions)
    }

    /// TEXT words (title contains) and `--where` expressions as predicates; also what
    /// `qplay alarm` plays.
    static func predicates(text: [String], expressions: [String]) throws -> [Predicate] {
        var predicates: [Predicate] = []
        if !text.isEmpty { predicates.append(Predicate(.title, .contains, text.joined(separator: " "))) }
        for expression in expressions {
            do {
                predicates.append(try WhereExpression.parse(expression))
            } catch {
                throw ValidationError("--where \(error)")
            }
        }
        return predicates
    }
}

struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "List library tracks: title contains TEXT, and every --where holds.")
    @OptionGroup var selection: TrackSelection
    @Option(help: "At most N tracks.") var limit: Int?
    @OptionGroup var options: ConnectionOptions

    func validate() throws {
        _ = try selection.predicates()
        if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more") }
    }

    /// No match exits 1 (`ExitStatus.refused`), with `--json` too (which prints the
    /// empty result first), as grep does: a script can test for it.
    func run() throws {
        try performing {
            var connection = options.connection
            connection.json = false
            guard let response = try connection.run(.search(where: try selection.predicates(), limit: limit)) else {
                return
            }
            let tracks = try response.result(as: SearchResult.self).tracks
            if options.json {
                let result = Array(response.rawResult ?? ArraySlice("{}".utf8)) + [10]
                Output.write(result, to: 1, closedStatus: tracks.isEmpty ? ExitStatus.refused : ExitStatus.success)
            } else {
                Output.lines(tracks.map(Listing.searchRow))
            }
            if tracks.isEmpty { throw Failure.nothingMatched("no track matches") }
        }
    }
}

struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add tracks to the queue; on an empty queue they start playing.",
        discussion: "Examples: qplay add love; qplay add --where artist=Beyoncé --where album~live; qplay add --id 42")
    @OptionGroup var selection: TrackSelection
    @Option(name: .customLong("id"), help: ArgumentHelp("A track id; repeatable.", valueName: "N"))
    var ids: [Int64] = []
    @OptionGroup var options: ConnectionOptions

    func validate() throws {
        let predicates = try selection.predicates()
        if predicates.isEmpty && ids.isEmpty {
            throw ValidationError("say what to add: TEXT, --where EXPR or --id N")
        }
        if !predicates.isEmpty && !ids.isEmpty {
            throw ValidationError("give either TEXT/--where or --id, not both")
        }
    }

    func run() throws {
        try performing {
            let source: AddSource =
                try selection.urls.map(AddSource.urls) ?? (ids.isEmpty ? .query(selection.predicates()) : .ids(ids))
            guard let response = try options.run(.add(source)) else { return }
            let result = try response.result(as: AddResult.self)
            let noun = result.added == 1 ? "track" : "tracks"
            Output.line(
                result.started
                    ? "added \(result.added) \(noun); playing"
                    : "added \(result.added) \(noun) (the queue changes at the next track)")
        }
    }
}

struct QueueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue", abstract: "List the queue, 1-based, the playing entry marked.",
        discussion: """
            A queue of more than \(longQueue) entries is listed \(defaultRadius) entries either side of \
            the playing one (from the start when nothing plays); --all lists every entry, \
            --around N that many either side. --json answers the whole queue unless --around is given.
            """)
    /// Longer queues are listed as a window unless `--all` says otherwise.
    static let longQueue = 200
    /// Entries either side of the playing one in the default window.
    static let defaultRadius = 20

    @Option(help: ArgumentHelp("List N entries either side of the playing one.", valueName: "N"))
    var around: Int?
    @Flag(help: "List every entry, however long the queue.") var all = false
    @OptionGroup var options: ConnectionOptions

    func validate() throws {
        if let around, around < 0 { throw ValidationError("--around must be 0 or more") }
        if around != nil && all { throw ValidationError("give either --around or --all, not both") }
    }

    func run() throws {
        try performing {
            let window: QueueWindow
            if let around {
                window = .around(around)
            } else if all || options.json {
                window = .all
            } else {
                window = .around(Self.defaultRadius)
            }
            guard let response = try options.run(.queue(window)) else { return }
            var queue = try response.result(as: Queue.self)
            if around == nil, queue.isWindow, queue.total <= Self.longQueue {
                // Not long after all: the whole of it, as for any short queue.
                guard let whole = try options.run(.queue(.all)) else { return }
                queue = try whole.result(as: Queue.self)
            }
            for line in Listing.queue(queue) { Output.line(line) }
            if queue.isWindow { Output.line(Self.windowNote(queue)) }
        }
    }

    /// Which part of the queue a window shows, 1-based, and how to see the rest.
    static func windowNote(_ queue: Queue) -> String {
        let shown =
            queue.entries.isEmpty
            ? "no entries" : "entries \(queue.start + 1)–\(queue.start + queue.entries.count)"
        return "(\(shown) of \(queue.total); `qplay queue --all` lists every one)"
    }
}

/// A 1-based queue position from the command line.
struct Position: ExpressibleByArgument {
    let index: Int
    init?(argument: String) {
        guard let value = Int(argument), value >= 1 else { return nil }
        index = value - 1
    }
}

struct Remove: QuietCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove the entry at position N (1-based).")
    @Argument(help: "Position, as `qplay queue` shows it.") var position: Position
    @OptionGroup var options: ConnectionOptions
    var command: Command { .remove(.index(position.index)) }

    func run() throws {
        try runNamingPositions(command, [position], connection: options.connection)
    }
}

struct Jump: QuietCommand {
    static let configuration = CommandConfiguration(commandName: "jump", abstract: "Play the entry at position N (1-based).")
    @Argument(help: "Position, as `qplay queue` shows it.") var position: Position
    @OptionGroup var options: ConnectionOptions
    var command: Command { .jump(.index(position.index)) }

    func run() throws {
        try runNamingPositions(command, [position], connection: options.connection)
    }
}

struct Move: QuietCommand {
    static let configuration = CommandConfiguration(commandName: "move", abstract: "Move the entry at FROM to position TO (1-based).")
    @Argument(help: "Current position.") var from: Position
    @Argument(help: "New position.") var to: Position
    @OptionGroup var options: ConnectionOptions
    var command: Command { .move(from: from.index, to: to.index) }

    func run() throws {
        try runNamingPositions(command, [from, to], connection: options.connection)
    }
}

/// Runs a command that names queue positions. The protocol counts from 0 and so do the
/// daemon's messages; a position past the end is told again in the 1-based terms of
/// the command line, with the queue's length.
func runNamingPositions(_ command: Command, _ positions: [Position], connection: Connection) throws {
    try performing {
        do {
            _ = try connection.run(command)
        } catch Failure.refused(let error) where error.code == .notFound {
            var quiet = connection
            quiet.json = false
            guard let length = try? quiet.run(.status)?.result(as: Status.self).queueLength,
                let missing = positions.first(where: { $0.index >= length })
            else { throw Failure.refused(error) }
            let entries = length == 1 ? "1 entry" : "\(length) entries"
            throw Failure.refused(
                ProtocolError(
                    .notFound, "no entry at position \(missing.index + 1); the queue has \(entries) (see `qplay queue`)"))
        }
    }
}
