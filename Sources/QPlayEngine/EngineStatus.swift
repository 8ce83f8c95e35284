import QPlayModel

/// What `status` reports (docs/PROTOCOL.md, status), minus the output, which the daemon adds.
public struct EngineStatus: Sendable, Equatable {
    public var state: PlaybackState
    /// The now-playing entry: nil after the queue ended. Kept by `stop`, so `play`
    /// starts it again.
    public var entry: QueueEntry?
    /// The now-playing entry's 0-based place in the collection the user sees; nil when
    /// there is none or it is no longer in the collection (after `clear`).
    public var index: Int?
    public var position: Double
    public var duration: Double?
    public var queueLength: Int
    public var queueModified: Bool
    public var volume: Int
    public var repeatMode: RepeatMode
    public var shuffle: Bool
    /// With repeat off, playback stops after the current track.
    public var single: Bool
    /// An entry leaves the collection once it has been played (ended or skipped).
    public var consume: Bool
    /// The entry the player would go on with when the current track ends (installing a
    /// modified collection; repeat one: the current entry again; single: the entry a
    /// later `play` starts). Nil when the queue would end.
    public var next: QueueEntry?
    /// The collection's edit count (`QueueSnapshot.version`).
    public var queueVersion: UInt64
    public var seeking: ScanDirection
    /// Why the last entry that failed could not be played; cleared when a track starts.
    public var lastError: String?

    public var track: Track? { entry?.track }
}
