import ArgumentParser
import QPlayProtocol

/// `qplay rate N [--track ID]`: rates the playing track, or track ID, 0–5 stars.
struct RateCommand: QuietCommand {
    static let configuration = CommandConfiguration(
        commandName: "rate",
        abstract: "Rate the playing track (or --track ID) 0 to 5 stars; 0 clears the rating.",
        discussion: "Tracks show their rating, plays, skips, last play and when they were added with --json.")
    @Argument(help: ArgumentHelp("Stars, 0 to 5.", valueName: "N")) var stars: Int
    @Option(help: ArgumentHelp("A track id (from `qplay search --json`) instead of the playing track.", valueName: "ID"))
    var track: Int64?
    @OptionGroup var options: ConnectionOptions

    func validate() throws {
        guard (0...5).contains(stars) else { throw ValidationError("rate takes 0 to 5 stars, got \(stars)") }
    }

    var command: Command { .rate(track: track, stars: stars) }
}
