import QPlayModel

/// Resume points (docs/BEHAVIOUR.md, Timers, bookmarks and resume points): a track longer than `configuration.resumeMinDuration`
/// remembers where it was left (stopped, skipped, replaced) and starts there, less
/// `resumeRewind`, whenever it is loaded again; playing to its end forgets the point.
/// The engine keeps the table and decides; the daemon persists each change it emits
/// (`EngineOutput.resumePoints`) and hands the stored table back at start-up.
extension PlayerEngine {
    /// How far before the point it was left a track resumes, so the listener hears the
    /// last words again (mpv and podcast players rewind a little too).
    public static let resumeRewind = 2.0

    /// The resume points the engine starts from (the daemon's stored table); replaces
    /// the table, sends nothing.
    public mutating func restoreResumePoints(_ points: [TrackID: Double]) {
        resumePoints = points.filter { $0.value.isFinite && $0.value > 0 }
    }

    /// Where a track is, by the table: its point, when it has one and is long enough.
    public func resumePoint(of track: Track) -> Double? {
        guard remembersPosition(track) else { return nil }
        return resumePoints[track.id]
    }

    func remembersPosition(_ track: Track) -> Bool {
        track.duration > configuration.resumeMinDuration
    }

    /// Where a `play` of `track` starts: its point less the rewind, not below 0.
    func resumeStart(for track: Track) -> Double {
        guard let point = resumePoint(of: track) else { return 0 }
        return max(0, point - Self.resumeRewind)
    }

    /// The loaded track is left at `position` (stop, skip, jump, the queue replaced).
    /// A point that would resume at 0 is forgotten instead of stored.
    mutating func leaveCurrent(at position: Double, into output: inout EngineOutput) {
        guard isLoaded, let track = current?.track, remembersPosition(track) else { return }
        let left = clampedPosition(position, to: track.duration)
        setResumePoint(track.id, to: left > Self.resumeRewind ? left : nil, into: &output)
    }

    /// The current track played to its end: it starts from 0 the next time.
    mutating func currentEnded(into output: inout EngineOutput) {
        visitReachedEnd(into: &output)
        guard let track = current?.track, remembersPosition(track) else { return }
        setResumePoint(track.id, to: nil, into: &output)
    }

    private mutating func setResumePoint(_ track: TrackID, to position: Double?, into output: inout EngineOutput) {
        guard resumePoints[track] != position else { return }
        resumePoints[track] = position
        output.record(ResumePointChange(track: track, position: position))
    }
}
