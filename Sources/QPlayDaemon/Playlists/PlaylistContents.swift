import Foundation
import QPlayLibrary
import QPlayModel
import QPlayProtocol
import SystemPackage

/// What a playlist holds when listed, shown or loaded: each line's path and the
/// library's track for it (nil: the line names no track). A smart playlist's lines are
/// what its query finds now, so every one has its track.
struct PlaylistContents {
    var paths: [String]
    var tracks: [QPlayModel.Track?]
    /// A smart playlist's query.
    var rule: SmartPlaylistRule?
}

extension PlaylistStore {
    func contents(_ name: String, index: LibraryIndex) throws -> PlaylistContents {
        guard let summary = try file(of: name) else { throw PlaylistError.notFound }
        return try contents(summary, index: index)
    }

    func contents(_ summary: Summary, index: LibraryIndex) throws -> PlaylistContents {
        guard summary.smart else {
            let playlist = try read(summary.name)
            return PlaylistContents(paths: playlist.paths, tracks: try playlist.tracks(in: index))
        }
        let rule = try smartRule(summary)
        let tracks = try SmartPlaylistEvaluation.tracks(of: rule, in: index)
        return PlaylistContents(paths: tracks.map(\.path.string), tracks: tracks, rule: rule)
    }

    /// The tracks a load adds, in order, and how many lines name no track.
    func loadable(_ name: String, index: LibraryIndex) throws -> (tracks: [QPlayModel.Track], missing: Int) {
        guard let summary = try file(of: name) else { throw PlaylistError.notFound }
        guard summary.smart else {
            return try index.tracksFound(paths: read(summary.name).paths.map { FilePath($0) })
        }
        return (try SmartPlaylistEvaluation.tracks(of: smartRule(summary), in: index), 0)
    }

    /// A smart playlist's stored query; a file that does not hold one is a storage
    /// failure naming the file and what is wrong.
    func smartRule(_ summary: Summary) throws(PlaylistError) -> SmartPlaylistRule {
        let bytes = try bytes(of: summary.file)
        do {
            return try SmartPlaylistRule.stored(Array(bytes))
        } catch {
            throw .storage("\(summary.file) is not a smart playlist qplay can read: \(error.message)")
        }
    }
}
