import Foundation
import Logging
import QPlayLibrary
import QPlayModel
import QPlayProtocol

/// Ratings, and when each track was first seen: after start-up and after every scan
/// that changed the library, the tracks the state database has no figures for yet are
/// recorded as added then (library ids are never reused, so these are the ids above the
/// highest recorded). Plays and skips are written by `PlayerService` as the engine
/// counts them. After a scan, data detached from an index built again takes its files'
/// new ids first (`ListeningKeys`).
struct PlayStatistics: CoreEventSubscriber {
    let store: StateStore
    let index: LibraryIndex
    let player: PlayerService
    let log: Logger

    /// Reads the stored figures into `ListeningFigures.shared`, then records the tracks new
    /// since in the background: on a first start with a large library that is one row
    /// per track, and the socket need not wait for it.
    func start() {
        do {
            ListeningFigures.shared.replace(with: try store.trackFigures())
        } catch {
            log.error("could not read the play counts and ratings: \(error)")
        }
        Task { recordNewTracks() }
    }

    func receive(_ event: CoreEvent) {
        guard case .scan(let progress) = event, progress.done, progress.libraryChanged else { return }
        Task {
            await attachDetached()
            recordNewTracks()
        }
    }

    /// Detached data whose files are indexed again: moved to their ids, then read back
    /// into the figures and the engine's resume points.
    func attachDetached() async {
        do {
            guard try ListeningKeys(store: store, index: index).attach() else { return }
            ListeningFigures.shared.replace(with: try store.trackFigures())
            await player.reloadResumePoints(try BookmarkService.storedResumePoints(store: store, index: index))
        } catch is StateDatabase.Closed {
            // qplayd is stopping: the state database took its last write (nothing to report).
        } catch {
            log.error("could not move play counts and ratings to their files' new track ids: \(error)")
        }
    }

    func recordNewTracks() {
        do {
            let tracks = try index.trackIDs(above: try store.highestTrackWithFigures() ?? 0)
            guard !tracks.isEmpty else { return }
            let now = Date().timeIntervalSince1970
            try store.recordAdded(tracks: tracks, at: now)
            ListeningFigures.shared.recordAdded(tracks, at: now)
        } catch is StateDatabase.Closed {
            // qplayd is stopping: the state database took its last write (nothing to report).
        } catch {
            log.error("could not record when new tracks were added: \(error)")
        }
    }

    /// Rates `track` (the playing one when nil) 0–5 stars; 0 clears the rating.
    func rate(track: Int64?, stars: Int, player: PlayerService) async throws {
        let id: Int64
        if let track {
            guard try index.track(id: track) != nil else { throw ProtocolError.notFound("no track with id \(track)") }
            id = track
        } else {
            guard let playing = await player.snapshot().status.track else {
                throw ProtocolError.badRequest("rate: nothing is playing or paused; give `track`")
            }
            id = playing.id
        }
        do {
            ListeningFigures.shared.set(
                id, to: try store.setRating(track: id, stars: stars, at: Date().timeIntervalSince1970))
        } catch where DatabaseFiles.isStorageFailure(error) {
            throw ProtocolError.unavailable(
                "cannot write the state database \(store.path): \(DatabaseFiles.reason(error))")
        }
    }
}
