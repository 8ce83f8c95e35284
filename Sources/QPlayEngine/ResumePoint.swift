import QPlayModel

/// A change of a track's resume point for the daemon to persist: `position` is where
/// the track was left, in seconds; nil forgets the point (the track played to its end).
public struct ResumePointChange: Sendable, Equatable {
    public var track: TrackID
    public var position: Double?

    public init(track: TrackID, position: Double?) {
        self.track = track
        self.position = position
    }
}
