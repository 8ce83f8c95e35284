/// Whether the player is sounding, holding a track, or has nothing loaded.
public enum PlaybackState: String, Sendable, Codable, CaseIterable {
    case playing, paused, stopped
}

/// off: the queue ends after its last entry; one: a track that ends plays again;
/// all: the queue starts over after its last entry.
public enum RepeatMode: String, Sendable, Codable, CaseIterable {
    case off, one, all
}

/// The two buttons that know taps from holds.
public enum Button: String, Sendable, CaseIterable {
    case next, previous
}

/// What a held button is doing right now (status `seeking`).
public enum ScanDirection: String, Sendable {
    case none, forward, backward
}

/// What a button release did (the `release` result's `action`).
public enum ButtonAction: String, Sendable {
    case skip, restart, previous, seek
}
