import QPlayModel

/// An alarm ringing (docs/BEHAVIOUR.md, Timers, bookmarks and resume points). When it is due is `AlarmSchedule`'s business and the
/// daemon's clock; this is what it does to the player.
extension PlayerEngine {
    /// Why an alarm did not start playback.
    public enum AlarmSkip: String, Sendable, Equatable {
        case alreadyPlaying = "already playing"
        case nothingToPlay = "nothing to play"
    }

    /// Starts playback for an alarm: `tracks` (when given) are added after the playing
    /// entry and the first of them is played; otherwise the queue resumes (paused:
    /// where it was; stopped: its current entry from the start). `volume` is set first;
    /// with `fadeIn` the gain rises from silence to it over that many seconds. Something
    /// already playing is not interrupted.
    public mutating func ringAlarm(
        tracks: [Track], volume: Int?, fadeIn: Double, now: Duration, position: Double
    ) -> (skipped: AlarmSkip?, output: EngineOutput) {
        guard state != .playing else { return (.alreadyPlaying, EngineOutput()) }
        guard !tracks.isEmpty || current != nil || !collection.isEmpty else { return (.nothingToPlay, EngineOutput()) }
        var output = EngineOutput()
        if let volume { output.append(setVolume(volume, now: now, position: position)) }
        let fades = fadeIn > 0
        if fades { output.emit(.fade(to: 0, over: 0)) }
        if tracks.isEmpty {
            if fades, state == .paused, isLoaded {
                // The device still holds what was written before the pause, at the old
                // gain: a seek to the same place drops it, so the fade starts from silence.
                output.emit(.seek(clampedPosition(position)))
            }
            output.append(play(now: now, position: position))
        } else {
            let at = current.flatMap { collectionIndex(of: $0.id, near: currentIndexHint) }.map { $0 + 1 } ?? collection.count
            do {
                let added = try add(tracks, at: at, startsWhenEmpty: false, now: now, position: position)
                output.append(added.output)
                if let first = added.entries.first {
                    output.append(try jump(entry: first, now: now, position: position))
                }
            } catch {
                // A full queue: the alarm still wakes with what is there.
                output.append(play(now: now, position: position))
            }
        }
        if fades { output.emit(.fade(to: 1, over: fadeIn)) }
        return (state == .playing ? nil : .nothingToPlay, output)
    }
}
