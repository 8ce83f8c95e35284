import ArgumentParser
import QPlayProtocol

/// `qplay save NAME [--replace|--append]`: the queue as stored playlist NAME.
struct SaveCommand: QuietCommand {
    static let configuration = CommandConfiguration(
        commandName: "save",
        abstract: "Save the queue as stored playlist NAME (--replace or --append when it exists).",
        discussion: "Playlists are .m3u files in qplayd's playlist_directory, shared with MPD.")
    @Argument(help: "The playlist's name.") var name: String
    @Flag(help: "Write over the playlist when it exists.") var replace = false
    @Flag(help: "Add the queue at the end of the playlist, which must exist.") var append = false
    @OptionGroup var options: ConnectionOptions

    func validate() throws {
        if replace && append { throw ValidationError("save takes --replace or --append, not both") }
    }

    var command: Command { .playlist(.save(name: name, mode: replace ? .replace : append ? .append : .create)) }
}

/// `qplay load NAME`: adds a stored playlist's tracks to the queue, as `qplay add` does.
struct LoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Add stored playlist NAME to the queue (on an empty queue it starts playing).",
        discussion: "Lines of the playlist that name no track of the library are skipped and counted.")
    @Argument(help: "The playlist's name.") var name: String
    @OptionGroup var options: ConnectionOptions

    func run() throws {
        try performing {
            guard let response = try options.run(.playlist(.load(name: name, position: nil))) else { return }
            let loaded = try response.result(as: PlaylistLoaded.self)
            var line = "added \(loaded.added)"
            if loaded.missing > 0 { line += ", skipped \(loaded.missing) missing" }
            Output.line(line)
        }
    }
}

/// `qplay playlists`: every stored playlist with its track count.
struct PlaylistsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playlists",
        abstract: "List the stored playlists: name, tracks, missing lines; smart ones with their query.")
    @OptionGroup var options: ConnectionOptions

    func run() throws {
        try performing {
            guard let response = try options.run(.playlist(.list)) else { return }
            for playlist in try response.result(as: PlaylistList.self).playlists {
                var line = "\(playlist.name)  \(playlist.tracks) \(playlist.tracks == 1 ? "track" : "tracks")"
                if playlist.missing > 0 { line += ", \(playlist.missing) missing" }
                if let rule = playlist.rule { line += "  (smart: \(SmartRuleText.describe(rule)))" }
                Output.line(line)
            }
        }
    }
}

/// `qplay playlist NAME`, `qplay playlist rm NAME`, `qplay playlist mv OLD NEW`.
struct PlaylistCommandLine: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playlist",
        abstract: "Show a stored playlist, or remove or rename one.",
        discussion: """
            `qplay playlist NAME` lists its lines, 1-based (a line naming no track of the \
            library is shown as missing); `qplay playlist rm NAME` deletes it; `qplay \
            playlist mv OLD NEW` renames it.
            """)
    @Argument(help: "NAME, or `rm NAME`, or `mv OLD NEW`.") var words: [String] = []
    @OptionGroup var options: ConnectionOptions

    var command: PlaylistCommand {
        get throws {
            switch (words.first, words.count) {
            case ("rm", 2): return .delete(name: words[1])
            case ("mv", 3): return .rename(name: words[1], to: words[2])
            case (_, 1): return .show(name: words[0])
            default:
                throw ValidationError("qplay playlist takes NAME, `rm NAME` or `mv OLD NEW`")
            }
        }
    }

    func validate() throws {
        _ = try command
    }

    func run() throws {
        try performing {
            let request = try command
            guard let response = try options.run(.playlist(request)) else { return }
            guard case .show = request else { return }
            let entries = try response.result(as: PlaylistShow.self).entries
            let width = String(entries.count).count
            for entry in entries {
                let number = String(entry.position + 1)
                let padded = String(repeating: " ", count: max(0, width - number.count)) + number
                if let track = entry.track {
                    let duration = track.duration.map { "  " + TimeText.format($0) } ?? ""
                    Output.line("\(padded)  \(Listing.trackName(track))\(duration)")
                } else {
                    Output.line("\(padded)  \(entry.path)  (missing)")
                }
            }
        }
    }
}
