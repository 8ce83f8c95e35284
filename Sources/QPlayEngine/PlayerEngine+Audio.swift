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
        let successor = pending ?? PendingSuccessor(change: plan(.trackEnded), request: nil)
        if successor.request?.token == token || successor.change.entry?.id == startedEntry {
            lastKnownPosition = 0
            commit(successor.change, into: &output)
            currentToken = token
            started(&output)
            pending = nil
            // After a replacement the audio side may hold a stale successor: resend.
            announceSuccessor(into: &output, force: successor.request?.token != token)
        } else if let entry = successor.change.entry {
            lastKnownPosition = 0
            commit(successor.change, into: &output)
            load(entry, into: &output)
            if press?.phase == .scanning, let press { output.emit(.scan(rate: signedScanRate(press.button))) }
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
        guard token == currentToken, isLoaded else { return output }
        lastKnownPosition = 0
        let scanning = press?.phase == .scanning
        let change = plan(.trackEnded)
        commit(change, into: &output)
        if let entry = change.entry {
            load(entry, into: &output)
            // A hold scanning forward carries on into the next track.
            if scanning, let press { output.emit(.scan(rate: signedScanRate(press.button))) }
        } else {
            endQueue(into: &output, stopAudio: false)
        }
        return output
    }

    /// The audio side could not play a request. The current one: skip to the next entry
    /// (repeat-one does not hold it; a queue of nothing but broken entries ends). The
    /// announced successor: announce the one after it instead.
    public mutating func audioFailed(token: UInt64, reason: String, now: Duration) -> EngineOutput {
        var output = EngineOutput()
        if token == currentToken, isLoaded, let failed = current {
            lastError = reason
            unplayable.insert(failed.id)
            output.notify(.playbackFailed(entry: failed, reason: reason))
            lastKnownPosition = 0
            let change = plan(.skipForward)
            commit(change, into: &output)
            if let entry = change.entry {
                load(entry, into: &output)
            } else {
                endQueue(into: &output, stopAudio: false)
            }
        } else if let request = pending?.request, request.token == token {
            lastError = reason
            unplayable.insert(request.entry.id)
            output.notify(.playbackFailed(entry: request.entry, reason: reason))
            output.notify(.player)
            announceSuccessor(into: &output)
        }
        return output
    }

    private mutating func started(_ output: inout EngineOutput) {
        if lastError != nil { output.notify(.player) }
        lastError = nil
        unplayable = []
    }
}
