import ArgumentParser
import QPlayProtocol

/// `qplay smart NAME --where EXPR [--sort KEY] [--order asc|desc] [--limit N]`: stores a
/// smart playlist, a query evaluated whenever it is listed or loaded.
struct SmartCommand: QuietCommand {
    static let configuration = CommandConfiguration(
        commandName: "smart",
        abstract: "Store smart playlist NAME: the tracks a query finds, always current.",
        discussion: """
            It is listed by `qplay playlists`, shown by `qplay playlist NAME` and loaded by \
            `qplay load NAME`; saving it again replaces its query. Examples: qplay smart \
            "Top rated" --where "rating>=4" --sort rating; qplay smart "Not lately" --where \
            "last_played>90d" --sort random --limit 100.
            """)
    @Argument(help: "The playlist's name.") var name: String
    @OptionGroup var selection: TrackSelection
    @Option(help: "Order by: \(SmartSortKey.allCases.map(\.rawValue).joined(separator: ", ")) (default: library order).")
    var sort: String?
    @Option(help: "asc or desc (default: desc for counts and times, asc for title).") var order: String?
    @Option(help: "Keep the first N tracks.") var limit: Int?
    @OptionGroup var options: ConnectionOptions

    var rule: SmartPlaylistRule {
        get throws {
            var key: SmartSortKey?
            if let sort {
                guard let parsed = SmartSortKey(rawValue: String(sort.map { $0 == "-" ? "_" : $0 })) else {
                    throw ValidationError(
                        "--sort is one of \(SmartSortKey.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                key = parsed
            }
            var direction: SortOrder?
            if let order {
                guard let parsed = SortOrder(rawValue: order) else { throw ValidationError("--order is asc or desc") }
                direction = parsed
            }
            if let limit, !(1...SmartPlaylistRule.maximumLimit).contains(limit) {
                throw ValidationError("--limit is 1 to \(SmartPlaylistRule.maximumLimit)")
            }
            return SmartPlaylistRule(where: try selection.predicates(), sort: key, order: direction, limit: limit)
        }
    }

    func validate() throws {
        _ = try rule
    }

    var command: Command {
        get throws { .playlist(.smartSave(name: name, rule: try rule)) }
    }
}
