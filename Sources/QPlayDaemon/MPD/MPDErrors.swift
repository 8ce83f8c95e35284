import QPlayEngine
import QPlayLibrary
import QPlayMPD

/// qplay's errors as MPD's ACK codes.
enum MPDErrors {
    static func translate(_ error: any Error) -> MPDError {
        switch error {
        case let error as MPDError:
            return error
        case let error as EngineError:
            switch error {
            case .noMatch: return MPDError(.noExist, "No such song")
            case .notFound(let message): return MPDError(.noExist, message)
            case .badRequest(let message): return MPDError(.argument, message)
            // MPD's own words for its max_playlist_length.
            case .queueFull: return MPDError(.playlistMax, "playlist is at the max size")
            }
        case let error as PlaylistError:
            return MPDPlaylistCommands.translate(error)
        case let error as LibraryScanError:
            if case .subpathNotFound = error { return MPDError(.noExist, "Malformed path") }
            if error.isDuplicatePath { return MPDError(.argument, error.description) }
            return MPDError(.system, error.description)
        default:
            if DatabaseFiles.isStorageFailure(error) {
                return MPDError(.system, "cannot read the library index: \(DatabaseFiles.reason(error))")
            }
            return MPDError(.system, "\(error)")
        }
    }
}
