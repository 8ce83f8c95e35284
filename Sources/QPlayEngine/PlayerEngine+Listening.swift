import QPlayModel

/// Play and skip counts (`ListeningTally`): the engine keeps one tally for the loaded
/// request, fed with the positions the audio side reports, and emits each count
/// (`EngineOutput.listens`) when it happens for the daemon to write at once.
extension PlayerEngine {
    /// The tally of the loaded request, nil when nothing is loaded.
    public var listeningTally: ListeningTally? { listening }

    /// The audio side reports `position` heard in the loaded request (the daemon, about
    /// once a second while playing, only for the request the engine holds). While a
    /// scan runs nothing is heard.
    public mutating func audioHeard(position: Double) -> EngineOutput {
        var output = EngineOutput()
        guard state == .playing, isLoaded else { return output }
        if press?.phase == .scanning {
            listening?.deafen()
        } else {
            hear(at: position, into: &output)
        }
        return output
    }

    /// A visit begins at `position` (a `play`, or a successor joining at 0). A stream
    /// keeps no tally: its figures would belong to no library track.
    mutating func beginVisit(of track: Track, at position: Double) {
        listening = track.isStream ? nil : ListeningTally(duration: track.duration, from: position)
    }

    /// The loaded request is left at `position`; `skipping`: by next, a tap, a jump or a
    /// removal, which count as a skip.
    mutating func leaveVisit(at position: Double, skipping: Bool, into output: inout EngineOutput) {
        guard isLoaded, let track = current?.track else { return }
        if state == .playing, press?.phase != .scanning { hear(at: position, into: &output) }
        if skipping, listening?.leavingSkips == true {
            output.record(ListenCount(track: track.id, kind: .skip))
        }
        listening = nil
    }

    /// A seek from `position` to `target`: what played up to `position` was heard.
    mutating func seekVisit(from position: Double, to target: Double, into output: inout EngineOutput) {
        if state == .playing, press?.phase != .scanning { hear(at: position, into: &output) }
        listening?.jump(to: target)
    }

    /// A scan starts at `position`: what played up to there was heard, nothing after
    /// until the next report once it has ended.
    mutating func scanStarts(at position: Double, into output: inout EngineOutput) {
        if state == .playing { hear(at: position, into: &output) }
        listening?.deafen()
    }

    /// The loaded request played to its end (not while scanning: a scan is not heard).
    mutating func visitReachedEnd(into output: inout EngineOutput) {
        guard let track = current?.track, press?.phase != .scanning else { return }
        if listening?.reachEnd() == true { output.record(ListenCount(track: track.id, kind: .play)) }
        listening = nil
    }

    private mutating func hear(at position: Double, into output: inout EngineOutput) {
        guard let track = current?.track else { return }
        if listening?.hear(at: position) == true { output.record(ListenCount(track: track.id, kind: .play)) }
    }
}
