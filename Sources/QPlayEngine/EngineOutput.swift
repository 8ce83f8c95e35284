import QPlayModel

/// Tells the daemon that something subscribers see has changed; it then reads `status`
/// or `queue` and publishes.
public enum EngineEvent: Sendable, Equatable {
    /// Track, state, options, position jump or seeking changed (the protocol's `player` event).
    case player
    /// The collection was edited or installed (the protocol's `queue` event).
    case queue
    /// The audio side could not play an entry; the engine skipped it. For the log and
    /// error events; `status.lastError` holds the reason until a track starts.
    case playbackFailed(entry: QueueEntry, reason: String)
}

/// Everything one engine call asks of the outside world: audio commands, to be carried out
/// in order, and change events.
public struct EngineOutput: Sendable, Equatable {
    public var audio: [AudioCommand]
    public var events: [EngineEvent]
    /// Resume points taken or forgotten, in order, for the daemon to persist.
    public var resumePoints: [ResumePointChange]
    /// Plays and skips counted, in order, for the daemon to write (`ListeningTally`).
    public var listens: [ListenCount]

    public init(
        audio: [AudioCommand] = [], events: [EngineEvent] = [], resumePoints: [ResumePointChange] = [],
        listens: [ListenCount] = []
    ) {
        self.audio = audio
        self.events = events
        self.resumePoints = resumePoints
        self.listens = listens
    }

    mutating func emit(_ command: AudioCommand) {
        audio.append(command)
    }

    /// Each event kind at most once per call: subscribers want one update per change.
    mutating func notify(_ event: EngineEvent) {
        if !events.contains(event) { events.append(event) }
    }

    mutating func record(_ change: ResumePointChange) {
        resumePoints.append(change)
    }

    mutating func record(_ count: ListenCount) {
        listens.append(count)
    }

    /// What a later call asked for, after this one's: for a frontend command made of
    /// several engine calls (repeat then shuffle; clear then stop), carried out as one.
    public mutating func append(_ later: EngineOutput) {
        audio += later.audio
        resumePoints += later.resumePoints
        listens += later.listens
        for event in later.events { notify(event) }
    }
}
