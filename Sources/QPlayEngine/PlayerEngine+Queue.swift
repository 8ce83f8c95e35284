import QPlayModel

/// Editing the collection. Edits set the modified flag and never interrupt the sound,
/// except where the queue rules say so: adding to an empty queue starts it, and removing the
/// playing entry moves on.
extension PlayerEngine {
    /// Adds tracks as new entries: appended, or inserted so that the first of them stands
    /// at collection index `at` (0...length). An empty collection (none yet, or cleared)
    /// instead becomes the queue at once and plays from its first track, even if a track
    /// of the cleared queue is still sounding — unless `startsWhenEmpty` is false (MPD's
    /// `add` never starts playback): then it is an edit like any other. No tracks:
    /// `noMatch`; an index past the end: `badRequest`; more entries than
    /// `configuration.maxQueueLength`: `queueFull`; in each case nothing changes.
    /// Answers the new entries' ids, in queue order.
    public mutating func add(
        _ tracks: [Track], at index: Int? = nil, startsWhenEmpty: Bool = true, now: Duration, position: Double
    ) throws(EngineError) -> (added: Int, started: Bool, entries: [EntryID], output: EngineOutput) {
        guard !tracks.isEmpty else { throw .noMatch }
        if let index, !(0...collection.count).contains(index) {
            throw .badRequest(
                "position \(index) is outside the queue, which has \(collection.count) \(collection.count == 1 ? "entry" : "entries")")
        }
        guard tracks.count <= configuration.maxQueueLength - collection.count else {
            throw .queueFull(limit: configuration.maxQueueLength, length: collection.count, adding: tracks.count)
        }
        lastKnownPosition = position
        var output = EngineOutput()
        let entries = makeEntries(tracks)
        let starts = collection.isEmpty && startsWhenEmpty
        releasePlannedQueue()
        collection.insert(contentsOf: entries, at: index ?? collection.count)
        // The playing entry's place moves with an insert before it (plans look there).
        if let hint = currentIndexHint, let index, index <= hint { currentIndexHint = hint + entries.count }
        queueVersion &+= 1
        modified = true
        output.notify(.queue)
        if starts {
            cancelScan(into: &output)
            let wasStopped = state == .stopped
            state = .playing
            perform(plan(.start), leavesCurrent: !wasStopped, into: &output)
        } else {
            announceSuccessor(into: &output)
        }
        return (entries.count, starts, entries.map(\.id), output)
    }

    public mutating func remove(entry id: EntryID, now: Duration, position: Double) throws(EngineError) -> EngineOutput {
        guard let index = collection.firstIndex(where: { $0.id == id }) else {
            throw .notFound("no entry \(id) in the queue")
        }
        return removeEntry(at: index, position: position)
    }

    public mutating func remove(index: Int, now: Duration, position: Double) throws(EngineError) -> EngineOutput {
        guard collection.indices.contains(index) else { throw .notFound(noEntry(at: index)) }
        return removeEntry(at: index, position: position)
    }

    /// Removing the now-playing entry is a track change to its old neighbour in the play
    /// order: unmodified, that is a normal skip; modified, the new collection is installed
    /// and the entry after the removed one plays. Removing the last one stops.
    private mutating func removeEntry(at index: Int, position: Double) -> EngineOutput {
        lastKnownPosition = position
        var output = EngineOutput()
        // Only the now-playing entry's removal plans from the collection as it was; kept
        // for any other, the old array would make the removal copy the whole queue.
        let before = collection[index].id == current?.id ? collection : nil
        releasePlannedQueue()
        let removed = collection.remove(at: index)
        if before == nil, let hint = currentIndexHint, index < hint { currentIndexHint = hint - 1 }
        queueVersion &+= 1
        modified = true
        output.notify(.queue)
        if let before {
            cancelScan(into: &output)
            perform(plan(.removedPlaying(removed.id, collectionBefore: before)), skipping: true, into: &output)
        } else {
            announceSuccessor(into: &output)
        }
        return output
    }

    /// The message for an index past the queue's end, with the queue's length so the
    /// asker sees what range there is.
    private func noEntry(at index: Int) -> String {
        let length = collection.count
        return "no entry at index \(index); the queue has \(length) \(length == 1 ? "entry" : "entries")"
    }

    /// Plays an entry of the collection (installing a modified collection first). Always
    /// ends playing, also from paused or stopped, like tapping a row.
    public mutating func jump(entry id: EntryID, now: Duration, position: Double) throws(EngineError) -> EngineOutput {
        guard collection.contains(where: { $0.id == id }) else {
            throw .notFound("no entry \(id) in the queue")
        }
        return jumpTo(id, position: position)
    }

    public mutating func jump(index: Int, now: Duration, position: Double) throws(EngineError) -> EngineOutput {
        guard collection.indices.contains(index) else { throw .notFound(noEntry(at: index)) }
        return jumpTo(collection[index].id, position: position)
    }

    private mutating func jumpTo(_ id: EntryID, position: Double) -> EngineOutput {
        lastKnownPosition = position
        var output = EngineOutput()
        cancelScan(into: &output)
        let wasStopped = state == .stopped
        state = .playing
        perform(plan(.jump(id)), leavesCurrent: !wasStopped, skipping: true, into: &output)
        return output
    }

    /// Moves the entry at `from` so that it ends up at index `to`.
    public mutating func move(from: Int, to: Int, now: Duration, position: Double) throws(EngineError) -> EngineOutput {
        guard collection.indices.contains(from) else { throw .notFound(noEntry(at: from)) }
        guard collection.indices.contains(to) else { throw .notFound(noEntry(at: to)) }
        lastKnownPosition = position
        var output = EngineOutput()
        guard from != to else { return output }
        releasePlannedQueue()
        collection.insert(collection.remove(at: from), at: to)
        refreshCurrentIndex()
        queueVersion &+= 1
        modified = true
        output.notify(.queue)
        announceSuccessor(into: &output)
        return output
    }

    /// Empties the collection. The playing track plays on; at its end the empty
    /// collection is installed and the queue ends.
    public mutating func clear(now: Duration, position: Double) -> EngineOutput {
        lastKnownPosition = position
        var output = EngineOutput()
        guard !collection.isEmpty else { return output }
        collection = []
        currentIndexHint = nil
        queueVersion &+= 1
        modified = true
        output.notify(.queue)
        announceSuccessor(into: &output)
        return output
    }
}
