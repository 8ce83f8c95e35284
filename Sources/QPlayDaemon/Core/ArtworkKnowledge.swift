import QPlayModel
import Synchronization

/// Which tracks are known to have a picture or none, learnt when one was looked for
/// (`art`, MPRIS): tracks carry `"art": true|false` from then on, `null` before, since
/// pictures are never read during a scan. Kept in memory for the daemon's run.
final class ArtworkKnowledge: Sendable {
    static let shared = ArtworkKnowledge()

    /// Enough for a large library's worth of lookups; past it the map starts again.
    static let capacity = 200_000

    private let known = Mutex<[TrackID: Bool]>([:])

    func learn(_ track: TrackID, hasArt: Bool) {
        known.withLock { map in
            if map.count >= Self.capacity, map[track] == nil { map.removeAll(keepingCapacity: true) }
            map[track] = hasArt
        }
    }

    func hasArt(_ track: TrackID) -> Bool? {
        known.withLock { $0[track] }
    }
}
