import QPlayModel

/// Why the player moves to another entry.
enum ChangeReason: Sendable, Equatable {
    /// The audio side reached the end of the current track.
    case trackEnded
    /// next, a next-tap, a failed entry: repeat-one does not hold the player back.
    case skipForward
    /// previous, a previous-tap within the restart time.
    case skipBack
    case jump(EntryID)
    /// The playing entry was removed; `collectionBefore` still holds it, so its old
    /// neighbour can be found.
    case removedPlaying(EntryID, collectionBefore: [QueueEntry])
    /// Playback starts from nothing (add to an empty queue, play after the queue ended).
    case start
}

/// The engine's queue state after a track change, computed without touching the engine:
/// the same computation predicts the gapless successor and later performs the change, so
/// what the audio side prefetched is exactly what the engine then commits.
struct TrackChange: Sendable, Equatable {
    var queue: InstalledQueue
    var random: ShuffleRandom
    /// The modified collection became the installed queue.
    var installs: Bool
    /// Nil: the queue has ended.
    var entry: QueueEntry?
    /// Single mode: the player stops before `entry`, which becomes now-playing, stopped.
    var stops = false
    /// Consume mode: the entry left behind, removed from the collection by the change
    /// (`queue` no longer holds it).
    var consumed: EntryID?
}

/// The successor announced to the audio side with `setNext`, and the change its start
/// will commit.
struct PendingSuccessor: Sendable, Equatable {
    var change: TrackChange
    var request: PlaybackRequest?
}
