import QPlayEngine
import QPlayModel

/// What the Player interface shows at one moment, from the player's snapshot; the
/// frontend compares consecutive views to know which properties changed and whether
/// the position jumped (`Seeked`).
struct MPRISPlayerView: Sendable {
    var playbackStatus: String
    var loopStatus: String
    var shuffle: Bool
    var volume: Double
    var metadata: MPRISMetadata
    var canGoNext: Bool
    var canGoPrevious: Bool
    var canPlay: Bool
    var canPause: Bool
    var canSeek: Bool
    /// Not properties: what a jump of the position is judged by.
    var entry: EntryID?
    var position: Double
    var seeking: ScanDirection
    var takenAt: ContinuousClock.Instant

    init(
        status: EngineStatus, skips: (next: Bool, previous: Bool), metadata: MPRISMetadata,
        takenAt: ContinuousClock.Instant
    ) {
        playbackStatus = Self.playbackStatus(status.state)
        loopStatus = Self.loopStatus(status.repeatMode)
        shuffle = status.shuffle
        volume = Double(status.volume) / 100
        self.metadata = metadata
        canGoNext = skips.next
        canGoPrevious = skips.previous
        canPlay = status.entry != nil || status.queueLength > 0
        canPause = canPlay
        canSeek = status.entry != nil && status.state != .stopped
        entry = status.entry?.id
        position = status.position
        seeking = status.seeking
        self.takenAt = takenAt
    }

    static func playbackStatus(_ state: PlaybackState) -> String {
        switch state {
        case .playing: "Playing"
        case .paused: "Paused"
        case .stopped: "Stopped"
        }
    }

    static func loopStatus(_ mode: RepeatMode) -> String {
        switch mode {
        case .off: "None"
        case .one: "Track"
        case .all: "Playlist"
        }
    }

    static func repeatMode(loopStatus: String) -> RepeatMode? {
        switch loopStatus {
        case "None": .off
        case "Track": .one
        case "Playlist": .all
        default: nil
        }
    }

    /// The Player properties whose values differ from `old`'s, for PropertiesChanged.
    func changedProperties(since old: MPRISPlayerView) -> [String] {
        var names: [String] = []
        if playbackStatus != old.playbackStatus { names.append("PlaybackStatus") }
        if loopStatus != old.loopStatus { names.append("LoopStatus") }
        if shuffle != old.shuffle { names.append("Shuffle") }
        if volume != old.volume { names.append("Volume") }
        if metadata != old.metadata { names.append("Metadata") }
        if canGoNext != old.canGoNext { names.append("CanGoNext") }
        if canGoPrevious != old.canGoPrevious { names.append("CanGoPrevious") }
        if canPlay != old.canPlay { names.append("CanPlay") }
        if canPause != old.canPause { names.append("CanPause") }
        if canSeek != old.canSeek { names.append("CanSeek") }
        return names
    }

    /// A jump clients cannot follow by the clock: the same entry, loaded in both, and a
    /// held button's scan ended, or the position is more than `tolerance` seconds away
    /// from where `old` would have got by now (a seek by any frontend, a restart by
    /// Previous).
    func seeked(since old: MPRISPlayerView, tolerance: Double = 1) -> Bool {
        guard let entry, entry == old.entry, playbackStatus != "Stopped", old.playbackStatus != "Stopped" else {
            return false
        }
        if old.seeking != .none && seeking == .none { return true }
        guard seeking == .none else { return false }
        var expected = old.position
        if old.playbackStatus == "Playing" {
            let elapsed = takenAt - old.takenAt
            expected += Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        }
        return abs(position - expected) > tolerance
    }
}
