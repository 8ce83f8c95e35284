import QPlayEngine
import QPlayLibrary
import QPlayModel
import QPlayProtocol

/// qplay's own stored-playlist commands (docs/PROTOCOL.md, Stored playlists) on the
/// folder the MPD frontend shares: `not_found`, `exists`, and `bad_request` for a bad
/// name, a position outside the playlist or a mode that needs a playlist.
struct PlaylistRequests {
    let store: PlaylistStore
    let player: PlayerService
    let index: LibraryIndex

    /// `tracks`: the tracks an `add` source names, as `add` finds them.
    func respond(to command: PlaylistCommand, tracks: (AddSource) throws -> [QPlayModel.Track]) async throws -> Response {
        do {
            return try await answer(command, tracks: tracks)
        } catch let error as PlaylistError {
            throw Self.translate(error, command: command)
        }
    }

    private func answer(_ command: PlaylistCommand, tracks: (AddSource) throws -> [QPlayModel.Track]) async throws -> Response {
        switch command {
        case .list:
            var summaries: [PlaylistSummary] = []
            for file in try store.list() {
                let modified = MPDSongWriter.isoDate(nanoseconds: file.modified * 1_000_000_000)
                guard file.smart else {
                    let tracks = try store.contents(file, index: index).tracks
                    let known = tracks.count { $0 != nil }
                    summaries.append(
                        PlaylistSummary(
                            name: file.name, tracks: known, missing: tracks.count - known, modified: modified,
                            smart: false, rule: nil))
                    continue
                }
                // A smart playlist is counted, not evaluated: its order does not change how
                // many it holds. One whose file holds no rule (edited by hand) is listed
                // empty and without one, and the others still list; showing or loading it
                // names what is wrong.
                let rule = try? store.smartRule(file)
                let count = try rule.map { try SmartPlaylistEvaluation.count(of: $0, in: index) } ?? 0
                summaries.append(
                    PlaylistSummary(
                        name: file.name, tracks: count, missing: 0, modified: modified, smart: true, rule: rule))
            }
            return .success(PlaylistList(playlists: summaries))
        case .show(let name):
            let found = try store.contents(name, index: index)
            let entries = zip(found.paths, found.tracks).enumerated().map { position, pair in
                PlaylistEntry(
                    position: position, path: pair.0, missing: pair.1 == nil, track: pair.1.map(QPlayProtocol.Track.init))
            }
            return .success(PlaylistShow(name: name, entries: entries))
        case .save(let name, let mode):
            let queue = await player.queueSnapshot()
            let saved = StoredPlaylist(tracks: queue.entries.map(\.track))
            switch mode {
            case .create: try store.create(name, saved)
            case .replace: try store.replace(name, saved)
            case .append: try store.edit(name) { playlist throws(PlaylistError) in playlist.entries += saved.entries }
            }
            return .empty
        case .load(let name, let position):
            let (loading, missing) = try store.loadable(name, index: index)
            guard !loading.isEmpty else { return .success(PlaylistLoaded(added: 0, missing: missing, started: false)) }
            let started = try await player.perform { engine, now, at throws(EngineError) in
                let result = try engine.add(loading, at: position, now: now, position: at)
                return (result.started, result.output)
            }
            return .success(PlaylistLoaded(added: loading.count, missing: missing, started: started))
        case .add(let name, let source):
            let added = try tracks(source).map(StoredPlaylist.Entry.init(track:))
            try store.edit(name, creating: true) { playlist throws(PlaylistError) in playlist.entries += added }
            return .empty
        case .remove(let name, let positions):
            try store.edit(name) { playlist throws(PlaylistError) in
                guard positions.allSatisfy({ $0 < playlist.entries.count }) else { throw PlaylistError.badIndex }
                for position in Set(positions).sorted(by: >) { playlist.entries.remove(at: position) }
            }
            return .empty
        case .move(let name, let from, let to):
            try store.edit(name) { playlist throws(PlaylistError) in
                guard from < playlist.entries.count, to < playlist.entries.count else { throw PlaylistError.badRange }
                playlist.entries.insert(playlist.entries.remove(at: from), at: to)
            }
            return .empty
        case .rename(let name, let newName):
            try store.rename(name, to: newName)
            return .empty
        case .delete(let name):
            try store.delete(name)
            return .empty
        case .smartSave(let name, let rule):
            try store.saveSmart(name, rule.storedText)
            return .empty
        }
    }

    static func translate(_ error: PlaylistError, command: PlaylistCommand) -> ProtocolError {
        let name = command.name
        switch error {
        case .badName:
            return .badRequest("\(name): a playlist name is 1 to 255 bytes without / or control characters")
        case .notFound: return .notFound("\(name): no such playlist")
        case .exists: return .exists("\(name): a playlist of that name exists")
        case .badIndex, .badPosition, .badRange: return .badRequest("\(name): a position is outside the playlist")
        case .storage(let reason): return .unavailable(reason)
        case .readOnly:
            return .badRequest("\(name): a smart playlist's tracks are what its query finds; change the query with smart_save")
        }
    }
}
