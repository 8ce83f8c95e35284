import QPlayModel
import QPlayMPD
import QPlayStreams

/// Commands about the connection itself and what the server knows: password, tagtypes,
/// idle, the command lists, handlers and decoders.
enum MPDConnectionCommands {
    static let all: [MPDCommand] = [
        MPDCommand("ping", beforePassword: true) { _ in },
        MPDCommand("close", beforePassword: true) { call in call.closes = true },
        MPDCommand("password", beforePassword: true, arguments: 1...1) { call in
            // Without a configured password every password is wrong, as in MPD.
            guard call[0] == call.settings.password else {
                throw MPDError(.password, "incorrect password")
            }
            call.settings.authorized = true
        },
        MPDCommand("binarylimit", beforePassword: true, arguments: 1...1) { call in
            let limit = try MPDArgument.unsigned(call[0], max: MPDArtworkCommands.maximumBinaryLimit)
            guard limit >= 64 else { throw MPDError(.argument, "Value too small") }
            call.settings.binaryLimit = limit
        },
        MPDCommand("commands", beforePassword: true) { call in
            for name in MPDCommandTable.sortedNames {
                guard let command = MPDCommandTable.command(named: name), call.settings.permits(command) else { continue }
                call.response.field("command", name)
            }
        },
        MPDCommand("notcommands", beforePassword: true) { call in
            for name in MPDCommandTable.sortedNames {
                guard let command = MPDCommandTable.command(named: name), !call.settings.permits(command) else { continue }
                call.response.field("command", name)
            }
        },
        MPDCommand("tagtypes", beforePassword: true, arguments: 0...Int.max) { call in try tagtypes(&call) },
        MPDCommand("idle", arguments: 0...Int.max) { call in
            var wanted = MPDSubsystems()
            for name in call.arguments {
                guard let subsystem = MPDSubsystem.named(name) else {
                    throw MPDError(.argument, "Unrecognized idle event: \(name)")
                }
                wanted.insert(MPDSubsystems(subsystem))
            }
            call.idle = wanted.isEmpty ? .all : wanted
        },
        // Answered by the session itself (it ends a waiting idle); listed for `commands`.
        MPDCommand("noidle") { _ in },
        MPDCommand("urlhandlers") { call in
            // The schemes `add` takes as streams (MPDStreamURIs).
            for scheme in StreamURL.schemes { call.response.field("handler", scheme + "://") }
        },
        MPDCommand("decoders") { call in
            // The format table's rows, in its order, under their MPD plugin names: the
            // rows of one plugin (FFmpeg's) together under it once.
            let formats = AudioFileFormat.allCases
            for (index, format) in formats.enumerated() {
                let plugin = format.row.mpdDecoder
                if index == 0 || formats[index - 1].row.mpdDecoder != plugin { call.response.field("plugin", plugin) }
                for suffix in format.fileExtensions.sorted() { call.response.field("suffix", suffix) }
            }
        },
        MPDCommand("config") { _ in
            throw MPDError(.permission, "Command only permitted to local clients")
        },
    ] + storedPlaylistCommands

    /// `searchaddpl` is not there (the other stored-playlist commands are
    /// `MPDPlaylistCommands`): MPD's answer when it has no `playlist_directory`.
    private static let storedPlaylistCommands: [MPDCommand] = [
        MPDCommand("searchaddpl", arguments: 0...Int.max) { _ in
            throw MPDError(.unknown, "Stored playlists are disabled")
        }
    ]

    /// `tagtypes`, `tagtypes clear|all`, `tagtypes enable|disable TAG...`: which tags the
    /// connection's songs show.
    private static func tagtypes(_ call: inout MPDCall) throws {
        guard let action = call.argument(0) else {
            for tag in MPDSongWriter.supportedTags where call.settings.tags.contains(tag) {
                call.response.field("tagtype", tag.rawValue)
            }
            return
        }
        let names = call.arguments.dropFirst()
        switch action {
        case "clear", "all":
            guard names.isEmpty else { throw MPDError(.argument, "Too many arguments") }
            call.settings.tags = action == "all" ? Set(MPDSongWriter.supportedTags) : []
        case "enable", "disable":
            guard !names.isEmpty else { throw MPDError(.argument, "Not enough arguments") }
            var tags = Set<MPDTag>()
            for name in names {
                guard let tag = MPDTag.named(name) else {
                    // MPD knows more tags than qplay has data for; they change nothing here.
                    guard MPDKnownTags.contains(name) else { throw MPDError(.argument, "Unknown tag type: \(name)") }
                    continue
                }
                tags.insert(tag)
            }
            if action == "enable" { call.settings.tags.formUnion(tags) } else { call.settings.tags.subtract(tags) }
        default:
            throw MPDError(.argument, "Unknown sub command")
        }
    }
}

/// The other tag names MPD 0.23 knows (`tagtypes` lists them there): clients such as
/// ncmpcpp enable or disable them, which must not fail here.
enum MPDKnownTags {
    static let names: Set<String> = Set(
        [
            "ArtistSort", "AlbumSort", "AlbumArtistSort", "Name", "OriginalDate", "Composer", "ComposerSort",
            "Performer", "Conductor", "Work", "Movement", "MovementNumber", "Ensemble", "Location", "Grouping",
            "Label", "Comment", "MUSICBRAINZ_ARTISTID", "MUSICBRAINZ_ALBUMID", "MUSICBRAINZ_ALBUMARTISTID",
            "MUSICBRAINZ_TRACKID", "MUSICBRAINZ_RELEASETRACKID", "MUSICBRAINZ_WORKID",
        ].map { $0.lowercased() })

    static func contains(_ name: String) -> Bool {
        names.contains(name.lowercased())
    }
}
