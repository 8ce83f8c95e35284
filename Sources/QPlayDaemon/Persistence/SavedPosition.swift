/// Where playback was: the queue entry that was current and the seconds played into it.
/// Stored apart from the (larger) player state so it can be written every second cheaply.
public struct SavedPosition: Sendable, Hashable, Codable {
    /// The current entry's id, nil when nothing was current.
    public var entry: Int64?
    public var seconds: Double

    public init(entry: Int64?, seconds: Double) {
        self.entry = entry
        self.seconds = seconds
    }
}

/// What `StateStore.load()` finds: the last committed state and position. The position
/// may belong to another entry than the state's current one (e.g. a crash between a track
/// change and the next position write): compare `position.entry` before using it.
public struct SavedPlayerState<State: Sendable>: Sendable {
    public var state: State
    public var position: SavedPosition?

    public init(state: State, position: SavedPosition?) {
        self.state = state
        self.position = position
    }
}

extension SavedPlayerState: Equatable where State: Equatable {}
