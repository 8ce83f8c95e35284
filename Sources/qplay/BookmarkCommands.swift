import ArgumentParser
import QPlayProtocol

struct BookmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookmark",
        abstract: "Bookmark the current position, or play or remove a bookmark.",
        discussion: """
            `qplay bookmark [NAME]` bookmarks the current track at its position (NAME is \
            optional; several words are joined with spaces) and prints the bookmark's id. \
            `qplay bookmark go N` plays bookmark N's track from there (its queue entry if \
            queued, else a new entry after the playing one); `qplay bookmark rm N` removes \
            it. N is the id `qplay bookmarks` prints.
            """)
    @Argument(help: "NAME, or `go N`, or `rm N`.") var words: [String] = []
    @OptionGroup var options: ConnectionOptions

    enum Action: Equatable {
        case add(String?)
        case go(Int64)
        case remove(Int64)
    }

    var action: Action {
        get throws {
            guard let first = words.first, first == "go" || first == "rm" else {
                return .add(words.isEmpty ? nil : words.joined(separator: " "))
            }
            guard words.count == 2, let id = Int64(words[1]), id > 0 else {
                throw ValidationError("`qplay bookmark \(first) N` needs one bookmark id N (`qplay bookmarks` lists them)")
            }
            return first == "go" ? .go(id) : .remove(id)
        }
    }

    func validate() throws {
        _ = try action
    }

    func run() throws {
        try performing {
            switch try action {
            case .add(let name):
                guard let response = try options.run(.bookmarkAdd(name: name)) else { return }
                Output.line("bookmark \(try response.result(as: BookmarkAdded.self).bookmark)")
            case .go(let id):
                _ = try options.run(.bookmarkJump(id))
            case .remove(let id):
                _ = try options.run(.bookmarkRemove(id))
            }
        }
    }
}

struct Bookmarks: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookmarks", abstract: "List bookmarks: id, position, track, name.")
    @OptionGroup var options: ConnectionOptions

    /// A page at a time, as the daemon answers them (`--json`: each page's result on a
    /// line of its own), so 100,000 bookmarks are never one reply.
    func run() throws {
        try performing {
            var connection = options.connection
            let json = connection.json
            connection.json = false
            var start = 0
            while true {
                guard let response = try connection.run(.bookmarkList(track: nil, start: start)) else { return }
                let list = try response.result(as: BookmarkList.self)
                if json {
                    Output.bytes((response.rawResult ?? ArraySlice("{}".utf8)) + [10])
                } else {
                    Output.lines(list.bookmarks.map(Listing.bookmarkRow))
                }
                start = list.start + list.bookmarks.count
                guard !list.bookmarks.isEmpty, start < list.total else { return }
            }
        }
    }
}
