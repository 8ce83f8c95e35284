/// Reports from the audio side. Tokens are handed out in increasing order, so a report
/// about a token older than the last `play` concerns something that `play` replaced.
extension PlayerEngine {
    /// Brings a freshly started audio side to the engine's state: volume, and the
    /// now-playing entry at `position` (paused after a restore) with its successor.
    public mutating func attachAudio(position: Double) -> EngineOutput {
        var output = EngineOutput()
        output.emit(.volume(volume))
        if isLoaded, let current {
            load(current, from: clampedPosition(position), into: &output)
        }
        return output
    }

    /// A request began to be heard. The announced successor: the track change happens
    /// now (installing a modified collection). A successor the engine had since replaced:
    /// the engine performs the change it expects and corrects the audio side with `play`.
    public mutating func audioStarted(token: UInt64, now: Duration) -> EngineOutput {
        var output = EngineOutput()
        if token == currentToken {
            started(&output)
            return output
        }
        guard token > currentToken, let startedEntry = announced[token], isLoaded else { return output }
        // The stream went on past the current track: it played to its end.
        currentEnded(into: &output)
        let successor = pending ?? PendingSuccessor(change: plan(.trackEnded), request: nil)
        if successor.change.stops {
            // Announced before single mode was turned on: the stop comes a moment late.
            lastKnownPosition = 0
            commit(successor.change, into: &output)
            if successor.change.entry == nil {
                endQueue(into: &output, stopAudio: true)
            } else {
                stopBeforeCurrent(into: &output, stopAudio: true)
            }
        } else if successor.request?.token == token || successor.change.entry?.id == startedEntry {
            lastKnownPosition = 0
            commit(successor.change, into: &output)
            currentToken = token
            if let entry = current { beginVisit(of: entry.track, at: 0) }
            started(&output)
            pending = nil
            // After a replacement the audio side may hold a stale successor: resend.
            announceSuccessor(into: &output, force: successor.request?.token != token)
        } else if let entry = successor.change.entry {
            lastKnownPosition = 0
            commit(successor.change, into: &output)
            load(entry, into: &output)
            resumeScan(into: &output)
        } else {
            commit(successor.change, into: &output)
            endQueue(into: &output, stopAudio: true)
        }
        return output
    }

    /// The current request ended and no successor took over: the next entry is played
    /// with `play`, or the queue ends (stopped, nothing playing, the queue stays).
    public mutating func audioFinished(token: UInt64, now: Duration) -> EngineOutput {
        var output = EngineOutput()
        // The audio side reports `started` before a successor's end, so a finished
        // successor the engine has not seen start is adopted first: nothing is left
        // waiting for a report that will not come.
        if token > currentToken, announced[token] != nil {
            output = audioStarted(token: token, now: now)
        }
        guard token == currentToken, isLoaded else { return output }
        currentEnded(into: &output)
        carryOn(with: plan(.trackEnded), into: &output)
        return output
    }

    /// The audio side could not play a request, and its stream has ended there: after
    /// a failure it plays nothing until the next `play`, so the engine alone decides
    /// what follows. The current request: skip to the next entry (repeat-one does not
    /// hold it; a queue of nothing but broken entries ends). An announced successor: the
    /// stream reached it, so the current track ended — the track change to it is made,
    /// then it is skipped the same way. A successor the engine had replaced meanwhile:
    /// the change the engine expects is made and played.
    public mutating func audioFailed(token: UInt64, reason: String, now: Duration) -> EngineOutput {
        var output = EngineOutput()
        guard isLoaded, token >= currentToken else { return output }
        if token != currentToken {
            guard let failedEntry = announced[token] else { return output }
            // The stream reached the successor: the current track played to its end.
            currentEnded(into: &output)
            let successor = pending ?? PendingSuccessor(change: plan(.trackEnded), request: nil)
            guard !successor.change.stops,
                successor.request?.token == token || successor.change.entry?.id == failedEntry
            else {
                carryOn(with: successor.change, into: &output)
                return output
            }
            lastKnownPosition = 0
            commit(successor.change, into: &output)
            currentToken = token
            pending = nil
        }
        guard let failed = current else { return output }
        lastError = reason
        unplayable.insert(failed.id)
        output.notify(.playbackFailed(entry: failed, reason: reason))
        carryOn(with: plan(.skipForward), into: &output)
        return output
    }

    /// The audio side's stream has ended (a track ended with no successor, or failed):
    /// `change` is made and its entry played, or single mode stops before it, or the
    /// queue ends. The audio side is silent already, so nothing is stopped; a `play`
    /// ends its scan, so a hold still down carries on in the entry played next.
    private mutating func carryOn(with change: TrackChange, into output: inout EngineOutput) {
        lastKnownPosition = 0
        commit(change, into: &output)
        if let entry = change.entry, !change.stops {
            load(entry, into: &output)
            resumeScan(into: &output)
        } else if change.entry != nil {
            stopBeforeCurrent(into: &output, stopAudio: false)
        } else {
            endQueue(into: &output, stopAudio: false)
        }
    }

    private func resumeScan(into output: inout EngineOutput) {
        if press?.phase == .scanning, let press { output.emit(.scan(rate: signedScanRate(press.button))) }
    }

    private mutating func started(_ output: inout EngineOutput) {
        if lastError != nil { output.notify(.player) }
        lastError = nil
        unplayable = []
    }
}
