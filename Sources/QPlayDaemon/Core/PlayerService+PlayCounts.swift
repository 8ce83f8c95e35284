import Foundation
import QPlayEngine
import QPlayLibrary
import QPlayModel

/// Play and skip counts: the position heard goes to the engine about once a second
/// while playing, and each count the engine makes is written at once (one small
/// transaction, like a resume point), so a `kill -9` loses none.
extension PlayerService {
    /// Tells the engine what the audio side has played of the request it holds: the
    /// snapshot's position of that request, or where it was told to be while it has not
    /// got there (`position`); nothing when the snapshot is of another request.
    func reportHeard() {
        guard engine.playbackState == .playing, let token = inPlace({ $0.currentRequestToken }) else { return }
        guard commanded?.token == token || audio.snapshot.token == token else { return }
        let output = engine.audioHeard(position: position)
        if !output.listens.isEmpty { apply(output) }
    }

    /// The stored resume points again: after a rebuilt index's scan, detached points
    /// took their files' new ids (`ListeningKeys`).
    func reloadResumePoints(_ points: [TrackID: Double]) {
        engine.restoreResumePoints(points)
    }

    func saveListens(_ listens: [ListenCount]) {
        guard let store else { return }
        for listen in listens {
            let now = Date().timeIntervalSince1970
            do {
                let figures =
                    switch listen.kind {
                    case .play: try store.countPlay(track: listen.track, at: now)
                    case .skip: try store.countSkip(track: listen.track, at: now)
                    }
                ListeningFigures.shared.set(listen.track, to: figures)
            } catch {
                log.error("could not save a \(listen.kind) of track \(listen.track): \(error)")
            }
        }
    }
}
