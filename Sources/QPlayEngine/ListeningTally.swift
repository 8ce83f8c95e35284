/// How much of one visit of a track has been heard, and the counting rule
/// (docs/BEHAVIOUR.md, Play counts and ratings): a visit is a play once it has been heard
/// for half the track or 4 minutes, whichever is less, or once it plays to its end; it
/// is a skip when it is left by next, a next-tap, a jump or the removal of its entry
/// after at least 2 s heard and before it counted as a play.
///
/// Fed with the positions the audio side reports while playing: only the steps between
/// two reports count, so a seek (`jump(to:)`), a scan (`deafen()`) or a report far from
/// the last one adds nothing. A seek past the middle is therefore no play.
public struct ListeningTally: Sendable, Equatable {
    /// The share of the track that makes a play.
    public static let playFraction = 0.5
    /// Seconds heard that make a play however long the track.
    public static let playCap = 240.0
    /// Seconds heard before leaving makes a skip.
    public static let skipMinimum = 2.0
    /// The longest step between two reports taken as heard: reports come about once a
    /// second while playing, so a longer step is a jump the tally was not told of.
    public static let longestStep = 5.0

    /// The track's length in seconds; 0 when unknown (then only the cap or the end makes a play).
    public let duration: Double
    /// Seconds heard so far.
    public private(set) var heard: Double = 0
    /// The position last heard; nil while nothing is heard (a scan).
    private var mark: Double?
    /// The visit has counted as a play (at most once).
    public private(set) var played = false

    public init(duration: Double, from position: Double) {
        self.duration = duration.isFinite ? max(0, duration) : 0
        mark = position.isFinite ? position : nil
    }

    /// Seconds heard that make this visit a play.
    public var playThreshold: Double {
        duration > 0 ? min(duration * Self.playFraction, Self.playCap) : Self.playCap
    }

    /// The audio side reports `position` heard. True when this report makes the visit
    /// a play.
    public mutating func hear(at position: Double) -> Bool {
        guard position.isFinite else { return false }
        if let mark {
            let step = position - mark
            if step > 0, step <= Self.longestStep { heard += step }
        }
        mark = position
        guard !played, heard >= playThreshold else { return false }
        played = true
        return true
    }

    /// Playback moved to `position` without being heard in between (a seek).
    public mutating func jump(to position: Double) {
        mark = position.isFinite ? position : nil
    }

    /// Nothing is heard until the next report sets a new mark (a scan runs).
    public mutating func deafen() {
        mark = nil
    }

    /// The track played to its end. True when that makes the visit a play now.
    public mutating func reachEnd() -> Bool {
        guard !played else { return false }
        played = true
        return true
    }

    /// Whether leaving by next, a tap, a jump or a removal now is a skip.
    public var leavingSkips: Bool {
        !played && heard >= Self.skipMinimum
    }
}
