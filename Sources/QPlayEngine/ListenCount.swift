import QPlayModel

/// A visit the engine counted (`ListeningTally`), for the daemon to add to the track's
/// figures when it happens.
public struct ListenCount: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case play
        case skip
    }

    public var track: TrackID
    public var kind: Kind

    public init(track: TrackID, kind: Kind) {
        self.track = track
        self.kind = kind
    }
}
