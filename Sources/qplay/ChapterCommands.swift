import ArgumentParser
import QPlayProtocol

/// `qplay chapter next|prev|N`: seeks to a chapter of the playing track.
struct ChapterCommand: QuietCommand {
    static let configuration = CommandConfiguration(
        commandName: "chapter",
        abstract: "Go to the next or previous chapter of the playing track, or to chapter N.",
        discussion: """
            N is 1-based, as `qplay chapters` numbers them. `prev` within the first 3 seconds \
            of a chapter goes to the one before; later it goes back to this chapter's start.
            """)
    @Argument(help: ArgumentHelp("next, prev or N.", valueName: "WHERE")) var target: String
    @OptionGroup var options: ConnectionOptions

    static func parse(_ text: String) -> ChapterTarget? {
        switch text {
        case "next", "+1": return .step(1)
        case "prev", "previous", "-1": return .step(-1)
        default:
            guard let number = Int(text), number >= 1, number <= Int(Int32.max) else { return nil }
            return .index(number - 1)
        }
    }

    func validate() throws {
        guard Self.parse(target) != nil else {
            throw ValidationError("chapter takes next, prev or a chapter number N (1 or more)")
        }
    }

    var command: Command { .chapter(Self.parse(target)!) }
}

/// `qplay chapters`: the playing track's chapters, `▶` on the one playing.
struct Chapters: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chapters", abstract: "List the playing track's chapters: number, start, title.")
    @OptionGroup var options: ConnectionOptions

    /// `--json` prints the status result unchanged (its `chapters` and `chapter`).
    func run() throws {
        try performing {
            guard let response = try options.run(.status) else { return }
            Output.lines(Listing.chapters(try response.result(as: Status.self)))
        }
    }
}
