import QPlayModel

/// One thing for the audio side to play. The token is unique per request (never reused
/// within an engine's life), so reports from the audio side can be matched to the
/// request they concern even when the same entry was requested twice.
public struct PlaybackRequest: Sendable, Hashable {
    public let token: UInt64
    public let entry: QueueEntry

    public init(token: UInt64, entry: QueueEntry) {
        self.token = token
        self.entry = entry
    }
}

/// What the audio side must do, in the order given.
///
/// The engine assumes `play` and `stop` drop any successor the audio side holds (after a
/// `play` the engine always sends the new `setNext`, even `setNext(nil)`), and that the
/// audio side keeps scanning across a gapless track change until `endScan`.
public enum AudioCommand: Sendable, Equatable {
    /// Replace whatever plays now with this request, from a position in seconds.
    case play(PlaybackRequest, from: Double, paused: Bool)
    /// The gapless successor of what plays now; nil: stop after the current track.
    case setNext(PlaybackRequest?)
    case pause, resume, stop
    /// To a position within the current track, in seconds.
    case seek(Double)
    /// Software gain, 0...100.
    case volume(Int)
    /// Seek continuously at a signed multiple of real time (+4 forward, -4 backward),
    /// until `endScan`. Backward stops at 0; forward past the end is a normal track end.
    case scan(rate: Double)
    case endScan
    /// A gain on top of the volume (0 silence … 1 none), ramped from where it is to
    /// `to` over `over` seconds of played audio (0: at once): the sleep timer's fade
    /// out and the alarm's fade in. It holds across track changes until changed.
    case fade(to: Double, over: Double)
}
