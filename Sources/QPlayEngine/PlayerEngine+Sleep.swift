/// The sleep timer (docs/BEHAVIOUR.md, Timers, bookmarks and resume points): `counting` fires at its deadline and fades the sound out
/// over `configuration.sleepFade`, then pauses and restores the gain; `endOfTrack`
/// pauses at the track boundary with the next entry current at 0:00 (the plan stops
/// there, so the audio side is given no successor and plays nothing of it). The daemon
/// calls `tick` at `nextDeadline`, which covers the sleep deadlines too.
extension PlayerEngine {
    /// Sets the timer to fire `seconds` from `now` (replacing any timer, ending a fade).
    public mutating func setSleep(after seconds: Double, now: Duration, position: Double) throws(EngineError)
        -> EngineOutput
    {
        guard seconds.isFinite, seconds > 0, seconds <= 7 * 86_400 else {
            throw .badRequest("sleep: `after` must be more than 0 and at most 604800 seconds (a week), got \(seconds)")
        }
        lastKnownPosition = position
        var output = EngineOutput()
        replaceSleep(with: .counting(deadline: now + .milliseconds(Int64((seconds * 1000).rounded()))), into: &output)
        return output
    }

    /// Pauses at the end of the current track.
    public mutating func setSleepAtTrackEnd(now: Duration, position: Double) -> EngineOutput {
        lastKnownPosition = position
        var output = EngineOutput()
        replaceSleep(with: .endOfTrack, into: &output)
        return output
    }

    /// Cancels the timer; a running fade returns to the full volume at once.
    public mutating func cancelSleep(now: Duration, position: Double) -> EngineOutput {
        lastKnownPosition = position
        var output = EngineOutput()
        replaceSleep(with: nil, into: &output)
        return output
    }

    /// Seconds until the timer acts: until its deadline, or the time left in the
    /// current track for `endOfTrack` (`duration` is the length the audio side measured,
    /// when known); 0 while fading; nil without a timer.
    public func sleepRemaining(now: Duration, position: Double, duration measured: Double? = nil) -> Double? {
        switch sleep {
        case nil: return nil
        case .counting(let deadline): return max(0, (deadline - now).seconds)
        case .fading: return 0
        case .endOfTrack:
            guard state != .stopped, let duration = measured ?? current?.track.duration else { return 0 }
            return max(0, duration - clampedPosition(position, to: duration))
        }
    }

    public var sleepTimer: SleepTimer? { sleep }

    /// When the timer next needs `tick`: its deadline, or the end of its fade.
    var sleepDeadline: Duration? {
        switch sleep {
        case .counting(let deadline): deadline
        case .fading(let until): until
        case .endOfTrack, nil: nil
        }
    }

    /// The timer's part of `tick`. Expiring while playing fades out (or pauses at once
    /// with no fade configured); expiring while paused or stopped has nothing to do and
    /// just ends the timer. The end of the fade pauses and restores the gain.
    mutating func sleepTick(now: Duration, into output: inout EngineOutput) {
        switch sleep {
        case .counting(let deadline) where now >= deadline:
            let fade = configuration.sleepFade
            if state == .playing, fade > 0 {
                // The audio side reports the fade's end in what it wrote
                // (`audioFadeEnded`); the deadline is for an output that writes nothing.
                sleep = .fading(until: now + .milliseconds(Int64((fade * 1000).rounded())) + Self.fadeReportGrace)
                output.emit(.fade(to: 0, over: fade))
            } else {
                sleep = nil
                pauseForSleep(into: &output)
            }
            output.notify(.player)
        case .fading(let until) where now >= until:
            sleep = nil
            pauseForSleep(into: &output)
            output.emit(.fade(to: 1, over: 0))
            output.notify(.player)
        default:
            break
        }
    }

    /// How long after the fade's own length the engine waits for the audio side's report.
    public static let fadeReportGrace = Duration.seconds(2)

    /// The audio side wrote the end of a fade: the sleep fade is over — pause and
    /// restore the gain. A fade not of the sleep timer (an alarm's fade-in) changes nothing.
    public mutating func audioFadeEnded(now: Duration, position: Double) -> EngineOutput {
        lastKnownPosition = position
        var output = EngineOutput()
        guard case .fading = sleep else { return output }
        sleep = nil
        pauseForSleep(into: &output)
        output.emit(.fade(to: 1, over: 0))
        output.notify(.player)
        return output
    }

    private mutating func pauseForSleep(into output: inout EngineOutput) {
        guard state == .playing else { return }
        cancelScan(into: &output)
        state = .paused
        output.emit(.pause)
    }

    /// A pause, stop or another timer while the fade runs: the fade is over and the
    /// gain returns (after the pause or stop, so nothing is heard louder).
    mutating func endSleepFade(into output: inout EngineOutput) {
        guard case .fading = sleep else { return }
        sleep = nil
        output.emit(.fade(to: 1, over: 0))
        output.notify(.player)
    }

    /// Whether the plan for the end of the current track pauses before the next.
    var pausesAtTrackEnd: Bool { sleep == .endOfTrack }

    /// `endOfTrack` took effect (the track ended and the next entry is current): the
    /// timer is spent.
    mutating func sleepReachedTrackEnd(into output: inout EngineOutput) {
        guard sleep == .endOfTrack else { return }
        sleep = nil
        output.notify(.player)
    }

    private mutating func replaceSleep(with timer: SleepTimer?, into output: inout EngineOutput) {
        let wasAtTrackEnd = pausesAtTrackEnd
        endSleepFade(into: &output)
        sleep = timer
        output.notify(.player)
        // The successor the audio side holds depends on whether the track end pauses.
        if wasAtTrackEnd != pausesAtTrackEnd { announceSuccessor(into: &output) }
    }
}

