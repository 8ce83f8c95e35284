import QPlayModel

/// Player commands. Commands with nothing to do return an empty output rather than an
/// error, so key bindings and status bars can send them blindly; `seek` on nothing is
/// the exception (its result would be meaningless).
extension PlayerEngine {
    /// Resumes when paused; when stopped, starts the now-playing entry from its beginning,
    /// or, after the queue ended, the collection from its first entry (installing it).
    public mutating func play(now: Duration, position: Double) -> EngineOutput {
        lastKnownPosition = position
        var output = EngineOutput()
        switch state {
        case .playing:
            break
        case .paused:
            state = .playing
            output.emit(.resume)
            output.notify(.player)
        case .stopped:
            if let current {
                state = .playing
                load(current, into: &output)
                output.notify(.player)
            } else if !collection.isEmpty {
                state = .playing
                perform(plan(.start), into: &output)
            }
        }
        return output
    }

    public mutating func pause(now: Duration, position: Double) -> EngineOutput {
        lastKnownPosition = position
        var output = EngineOutput()
        guard state == .playing else { return output }
        state = .paused
        output.emit(.pause)
        endSleepFade(into: &output)
        output.notify(.player)
        return output
    }

    public mutating func toggle(now: Duration, position: Double) -> EngineOutput {
        state == .playing ? pause(now: now, position: position) : play(now: now, position: position)
    }

    /// Stops the sound; the now-playing entry stays, so `play` starts it again (MPD's
    /// behaviour). The queue ending is different: then nothing is playing.
    public mutating func stop(now: Duration, position: Double) -> EngineOutput {
        lastKnownPosition = 0
        var output = EngineOutput()
        guard state != .stopped else { return output }
        cancelScan(into: &output)
        leaveVisit(at: position, skipping: false, into: &output)
        leaveCurrent(at: position, into: &output)
        state = .stopped
        pending = nil
        output.emit(.stop)
        endSleepFade(into: &output)
        output.notify(.player)
        return output
    }

    /// Skips to the next entry of the play order (installing a modified collection). At
    /// the end: with repeat (all or one) around to the first, else the queue ends.
    /// Paused stays paused on the new entry; stopped moves the now-playing entry only.
    public mutating func next(now: Duration, position: Double) -> EngineOutput {
        lastKnownPosition = position
        var output = EngineOutput()
        guard current != nil else { return output }
        cancelScan(into: &output)
        perform(plan(.skipForward), skipping: true, into: &output)
        return output
    }

    /// More than `restartAfter` seconds in: the current track from its beginning.
    /// Otherwise the previous entry of the play order (installing a modified collection);
    /// on the first entry without repeat, the current track restarts. `restarting: false`
    /// leaves out the first rule: always the previous entry (MPD's `previous`).
    public mutating func previous(now: Duration, position: Double, restarting: Bool = true) -> EngineOutput {
        lastKnownPosition = position
        var output = EngineOutput()
        _ = goBack(position: position, restarting: restarting, into: &output)
        return output
    }

    /// Shared by `previous` and the previous-tap; answers what it did.
    mutating func goBack(position: Double, restarting: Bool = true, into output: inout EngineOutput) -> ButtonAction {
        guard let current else { return .previous }
        cancelScan(into: &output)
        if restarting, isLoaded, position > configuration.restartAfter {
            restart(current, into: &output)
            return .restart
        }
        let change = plan(.skipBack)
        guard change.entry != nil else {
            if isLoaded { restart(current, into: &output) }
            return .restart
        }
        perform(change, into: &output)
        return .previous
    }

    /// Not a track change (no install): the same entry, played again from 0 with a new
    /// request rather than a seek, so that a tap never produces a seek command. From 0
    /// also for a track with a resume point: restarting is asking for the beginning.
    private mutating func restart(_ entry: QueueEntry, into output: inout EngineOutput) {
        leaveVisit(at: lastKnownPosition, skipping: false, into: &output)
        lastKnownPosition = 0
        load(entry, from: 0, into: &output)
        output.notify(.player)
    }

    /// To an absolute position, clamped to the track (to its end: the track ends).
    public mutating func seek(to target: Double, now: Duration, position: Double) throws(EngineError) -> EngineOutput {
        guard target.isFinite else { throw .badRequest("seek position must be a number") }
        guard isLoaded else { throw .badRequest("nothing is playing") }
        let clamped = clampedPosition(target)
        lastKnownPosition = clamped
        var output = EngineOutput()
        seekVisit(from: position, to: clamped, into: &output)
        output.emit(.seek(clamped))
        output.notify(.player)
        return output
    }

    /// By a signed number of seconds from `position`, clamped to the track.
    public mutating func seek(by delta: Double, now: Duration, position: Double) throws(EngineError) -> EngineOutput {
        guard delta.isFinite else { throw .badRequest("seek delta must be a number") }
        return try seek(to: clampedPosition(position) + delta, now: now, position: position)
    }

    /// To a chapter of the playing track (`chapters`: its chapters, which the decoder
    /// read), by `ChapterNavigation`'s rules.
    public mutating func seek(
        to request: ChapterRequest, in chapters: [Chapter], now: Duration, position: Double
    ) throws(EngineError) -> EngineOutput {
        guard isLoaded else { throw .badRequest("nothing is playing") }
        let target = try ChapterNavigation.target(of: request, at: clampedPosition(position), in: chapters)
        return try seek(to: target, now: now, position: position)
    }

    /// Clamped to 0...100.
    public mutating func setVolume(_ percent: Int, now: Duration, position: Double) -> EngineOutput {
        lastKnownPosition = position
        var output = EngineOutput()
        let clamped = min(100, max(0, percent))
        guard clamped != volume else { return output }
        volume = clamped
        output.emit(.volume(clamped))
        output.notify(.player)
        return output
    }

    public mutating func changeVolume(by delta: Int, now: Duration, position: Double) -> EngineOutput {
        let (sum, overflow) = volume.addingReportingOverflow(delta)
        return setVolume(overflow ? (delta < 0 ? 0 : 100) : sum, now: now, position: position)
    }

    public mutating func setRepeat(_ mode: RepeatMode, now: Duration, position: Double) -> EngineOutput {
        setOption(\.repeatMode, to: mode, position: position)
    }

    /// An option that only changes what comes next: the successor is announced again.
    private mutating func setOption<Value: Equatable>(
        _ option: WritableKeyPath<PlayerEngine, Value>, to value: Value, position: Double
    ) -> EngineOutput {
        lastKnownPosition = position
        var output = EngineOutput()
        guard self[keyPath: option] != value else { return output }
        self[keyPath: option] = value
        output.notify(.player)
        announceSuccessor(into: &output)
        return output
    }

    /// Shuffle applies to the installed queue at once (it is no edit): on, a new round
    /// begins with the now-playing entry and every other entry follows in random order;
    /// off, the queue order returns and the entry after the now-playing one comes next.
    public mutating func setShuffle(_ on: Bool, now: Duration, position: Double) -> EngineOutput {
        lastKnownPosition = position
        var output = EngineOutput()
        guard on != shuffle else { return output }
        shuffle = on
        if on {
            let first = current.flatMap { installed.contains($0.id) ? $0.id : nil }
            installed = .shuffledRound(installed.entries, first: first, random: &random)
        } else {
            installed = .inQueueOrder(installed.entries)
        }
        output.notify(.player)
        announceSuccessor(into: &output)
        return output
    }

    /// Single (MPD's `single`): with repeat off, playback stops after the current track,
    /// and the entry that would have followed becomes now-playing, for `play` to start.
    /// With repeat one or all, repeat decides (the MPD frontend maps MPD's repeat with
    /// single onto repeat one).
    public mutating func setSingle(_ on: Bool, now: Duration, position: Double) -> EngineOutput {
        setOption(\.single, to: on, position: position)
    }

    /// Consume (MPD's `consume`): an entry leaves the collection once it has been played,
    /// when it ends or is skipped forward (not by previous or jump, as in MPD; not while
    /// repeat one plays it again). The removal is an edit made at the track change, so
    /// it never interrupts the sound and the queue stays installed.
    public mutating func setConsume(_ on: Bool, now: Duration, position: Double) -> EngineOutput {
        setOption(\.consume, to: on, position: position)
    }
}
