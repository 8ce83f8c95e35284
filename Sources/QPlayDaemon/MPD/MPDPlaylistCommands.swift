import QPlayEngine
import QPlayMPD
import QPlayModel

/// MPD's stored-playlist commands on qplay's playlist folder (`PlaylistStore`), with
/// MPD 0.23's answers: reading a playlist with a bad name is "No such playlist", changing
/// one is "Bad playlist name"; a line that names no track is listed (`file:` alone) and
/// skipped by `load`. `save NAME MODE` (create, append, replace) is MPD 0.24's form.
enum MPDPlaylistCommands {
    static let all: [MPDCommand] = [
        MPDCommand("listplaylists") { call in try writeList(&call) },
        MPDCommand("listplaylist", arguments: 1...1) { call in
            for path in try reading(call, call[0]).paths { call.response.field("file", path) }
        },
        MPDCommand("listplaylistinfo", arguments: 1...1) { call in
            let playlist = try reading(call, call[0])
            for (path, track) in zip(playlist.paths, playlist.tracks) {
                if let track {
                    MPDSongWriter.write(track, tags: call.settings.tags, into: &call.response)
                } else {
                    call.response.field("file", path)
                }
            }
        },
        MPDCommand("load", arguments: 1...3) { call in
            let playlist = try reading(call, call[0])
            let range = try call.argument(1).map { text throws(MPDError) in try MPDRange.parse(text) } ?? .all
            let position = call.argument(2)
            let tracks = playlist.tracks[range.clamped(to: playlist.tracks.count)].compactMap { $0 }
            try await load(tracks, at: position, call)
        },
        // MPD 0.23 takes one argument and words any other count so; 0.24 added the mode.
        MPDCommand("save", arguments: 0...Int.max) { call in
            guard (1...2).contains(call.arguments.count) else {
                throw MPDError(.argument, "wrong number of arguments for \"save\"")
            }
            let name = call[0]
            let mode: SaveMode = try call.argument(1).map { text throws(MPDError) -> SaveMode in
                guard let mode = SaveMode(rawValue: text) else {
                    throw MPDError(.argument, "wrong number of arguments for \"save\"")
                }
                return mode
            } ?? .create
            let queue = await call.context.player.queueSnapshot()
            let saved = StoredPlaylist(tracks: queue.entries.map(\.track))
            try changing { () throws(PlaylistError) in
                let store = call.context.playlists
                switch mode {
                case .create: try store.create(name, saved)
                case .replace: try store.replace(name, saved)
                case .append: try store.edit(name) { playlist throws(PlaylistError) in playlist.entries += saved.entries }
                }
            }
        },
        MPDCommand("rm", arguments: 1...1) { call in
            try changing { () throws(PlaylistError) in
                try refusingSmart(call[0], call)
                try call.context.playlists.delete(call[0])
            }
        },
        MPDCommand("rename", arguments: 2...2) { call in
            try changing(exists: "Playlist exists already") { () throws(PlaylistError) in
                try refusingSmart(call[0], call)
                try call.context.playlists.rename(call[0], to: call[1])
            }
        },
        MPDCommand("playlistclear", arguments: 1...1) { call in
            try changing { () throws(PlaylistError) in try call.context.playlists.edit(call[0]) { playlist throws(PlaylistError) in playlist.entries = [] } }
        },
        MPDCommand("playlistadd", arguments: 2...3) { call in
            let name = call[0]
            let position = try call.argument(2).map { text throws(MPDError) in try MPDArgument.unsigned(text) }
            guard PlaylistName.isValid(name) else { throw MPDError(.argument, "Bad playlist name") }
            let tracks = try MPDLibraryPaths.tracks(under: call[1], in: call.context)
            guard !tracks.isEmpty else { throw MPDError(.noExist, "No such directory") }
            let added = tracks.map(StoredPlaylist.Entry.init(track:))
            try changing { () throws(PlaylistError) in
                try call.context.playlists.edit(name, creating: true) { playlist throws(PlaylistError) in
                    let at = position ?? playlist.entries.count
                    guard at <= playlist.entries.count else { throw PlaylistError.badPosition }
                    playlist.entries.insert(contentsOf: added, at: at)
                }
            }
        },
        MPDCommand("playlistdelete", arguments: 2...2) { call in
            let range = try MPDRange.parse(call[1])
            try changing { () throws(PlaylistError) in
                try call.context.playlists.edit(call[0]) { playlist throws(PlaylistError) in
                    guard range.start < playlist.entries.count else { throw PlaylistError.badIndex }
                    playlist.entries.removeSubrange(range.clamped(to: playlist.entries.count))
                }
            }
        },
        MPDCommand("playlistmove", arguments: 3...3) { call in
            let from = try MPDArgument.unsigned(call[1])
            let to = try MPDArgument.unsigned(call[2])
            // As MPD: moving an entry onto itself is no change, and not even looked at.
            guard from != to else { return }
            try changing { () throws(PlaylistError) in
                try call.context.playlists.edit(call[0]) { playlist throws(PlaylistError) in
                    guard from < playlist.entries.count, to < playlist.entries.count else { throw PlaylistError.badRange }
                    playlist.entries.insert(playlist.entries.remove(at: from), at: to)
                }
            }
        },
    ]

    /// Every playlist with its file's time: `listplaylists`, and `lsinfo` of the root.
    static func writeList(_ call: inout MPDCall) throws {
        for playlist in try call.context.playlists.list() {
            call.response.field("playlist", playlist.name)
            call.response.field("Last-Modified", MPDSongWriter.isoDate(nanoseconds: playlist.modified * 1_000_000_000))
        }
    }

    private enum SaveMode: String {
        case create, append, replace
    }

    /// The playlist `name` for reading: a name that could not be a playlist's is simply
    /// not there.
    private static func reading(_ call: MPDCall, _ name: String) throws -> PlaylistContents {
        do {
            return try call.context.playlists.contents(name, index: call.context.index)
        } catch PlaylistError.badName, PlaylistError.notFound {
            throw MPDError(.noExist, "No such playlist")
        } catch let error as PlaylistError {
            throw translate(error)
        }
    }

    /// Smart playlists are qplay's: MPD clients read and load them, and change none
    /// (not even a removal or a new name).
    private static func refusingSmart(_ name: String, _ call: MPDCall) throws(PlaylistError) {
        if try call.context.playlists.file(of: name)?.smart == true { throw .readOnly }
    }

    /// Runs a change, its errors in MPD's words (`rename` words `exists` its own way).
    private static func changing(
        exists: String = "Playlist already exists", _ body: () throws(PlaylistError) -> Void
    ) throws(MPDError) {
        do {
            try body()
        } catch .exists {
            throw MPDError(.exist, exists)
        } catch {
            throw translate(error)
        }
    }

    static func translate(_ error: PlaylistError) -> MPDError {
        switch error {
        case .badName: MPDError(.argument, "Bad playlist name")
        case .notFound: MPDError(.noExist, "No such playlist")
        case .exists: MPDError(.exist, "Playlist already exists")
        case .badIndex: MPDError(.argument, "Bad song index")
        case .badPosition: MPDError(.argument, "Bad position")
        case .badRange: MPDError(.argument, "Bad range")
        case .storage(let reason): MPDError(.system, reason)
        case .readOnly: MPDError(.permission, "Smart playlists are read-only here; qplay changes them")
        }
    }

    /// `load`'s tracks into the queue at POS (MPD's ParseInsertPosition: `N` up to the
    /// queue's length, `+N`/`-N` around the current song); never starts playback.
    private static func load(_ tracks: [Track], at text: String?, _ call: MPDCall) async throws {
        let position = try text.map { text throws(MPDError) in try MPDArgument.position(text) }
        let refusal: MPDError? = try await call.context.player.perform { engine, now, at throws(EngineError) in
            let queue = engine.queue
            var index: Int?
            switch position {
            case nil:
                break
            case .absolute(let value):
                guard value <= queue.entries.count else {
                    return (MPDError(.argument, "Number too large: \(text ?? "")"), EngineOutput())
                }
                index = value
            case .afterCurrent, .beforeCurrent:
                guard engine.status(position: at).index != nil else {
                    return (MPDError(.playerSync, "No current song"), EngineOutput())
                }
                index = try MPDQueueCommands.resolve(position!, in: queue, status: engine.status(position: at))
                guard let resolved = index, resolved >= 0, resolved <= queue.entries.count else {
                    return (MPDError(.argument, "Bad position"), EngineOutput())
                }
            }
            guard !tracks.isEmpty else { return (nil, EngineOutput()) }
            let result = try engine.add(tracks, at: index, startsWhenEmpty: false, now: now, position: at)
            return (nil, result.output)
        }
        if let refusal { throw refusal }
    }
}
