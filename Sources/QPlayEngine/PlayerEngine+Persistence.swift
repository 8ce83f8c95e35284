/// Saving and restoring. A restored engine is paused at the saved position (or stopped
/// when nothing was playing); `attachAudio(position:)` then loads the audio side.
extension PlayerEngine {
    public var persistentState: EnginePersistentState {
        persistentState(position: lastKnownPosition)
    }

    /// The state to save, with the position the caller reads from the audio side.
    public func persistentState(position: Double) -> EnginePersistentState {
        var stored: [EntryID: StoredEntry] = [:]
        for entry in collection + installed.entries where stored[entry.id] == nil {
            stored[entry.id] = StoredEntry(id: entry.id, track: StoredTrack(entry.track))
        }
        if let current, stored[current.id] == nil {
            stored[current.id] = StoredEntry(id: current.id, track: StoredTrack(current.track))
        }
        return EnginePersistentState(
            version: 1,
            position: current == nil || state == .stopped ? 0 : clampedPosition(position),
            entries: stored.values.sorted { $0.id < $1.id },
            collection: collection.map(\.id),
            installed: installed.entries.map(\.id),
            playOrder: installed.order,
            modified: modified,
            current: current?.id,
            volume: volume,
            repeatMode: repeatMode,
            shuffle: shuffle,
            nextEntryID: nextEntryID,
            randomState: random.state)
    }

    /// Takes over a saved state, repairing what does not fit together (a hand-edited or
    /// partly written blob must not crash the daemon): unknown ids are dropped, a play
    /// order that is not a permutation of the installed queue is rebuilt, and the next
    /// entry id stays above every id in use.
    mutating func restore(_ saved: EnginePersistentState) {
        var byID: [EntryID: QueueEntry] = [:]
        for stored in saved.entries {
            byID[stored.id] = QueueEntry(id: stored.id, track: stored.track.track)
        }
        collection = unique(saved.collection.compactMap { byID[$0] })
        let installedEntries = unique(saved.installed.compactMap { byID[$0] })
        let installedIDs = installedEntries.map(\.id)
        if saved.playOrder.sorted() == installedIDs.sorted(), Set(saved.playOrder).count == installedIDs.count {
            installed = InstalledQueue(entries: installedEntries, order: saved.playOrder)
        } else {
            installed = .inQueueOrder(installedEntries)
        }
        modified = saved.modified
        current = saved.current.flatMap { byID[$0] }
        state = current == nil ? .stopped : .paused
        volume = min(100, max(0, saved.volume))
        repeatMode = saved.repeatMode
        shuffle = saved.shuffle
        if shuffle == false { installed = .inQueueOrder(installed.entries) }
        nextEntryID = max(saved.nextEntryID, (byID.keys.max() ?? 0) + 1)
        random = ShuffleRandom(state: saved.randomState)
        lastKnownPosition = state == .stopped ? 0 : clampedPosition(saved.position)
    }

    private func unique(_ entries: [QueueEntry]) -> [QueueEntry] {
        var seen: Set<EntryID> = []
        return entries.filter { seen.insert($0.id).inserted }
    }
}
