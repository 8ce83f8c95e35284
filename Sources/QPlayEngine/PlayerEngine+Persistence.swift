import QPlayModel

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
            randomState: random.state,
            single: single,
            consume: consume,
            queueVersion: queueVersion)
    }

    /// The state the row store saves, with the position the caller reads from the audio
    /// side. Costs no copy of the queue (the arrays are shared until the next edit).
    public func persistedState(position: Double) -> PersistedEngineState {
        PersistedEngineState(
            collection: collection,
            installed: installed.entries,
            playOrder: installed.order,
            current: current,
            settings: PersistedEngineSettings(
                current: current?.id, modified: modified, volume: volume, repeatMode: repeatMode,
                shuffle: shuffle, nextEntryID: nextEntryID, randomState: random.state,
                single: single, consume: consume, queueVersion: queueVersion),
            position: current == nil || state == .stopped ? 0 : clampedPosition(position),
            revisions: listRevisions)
    }

    mutating func restore(_ saved: EnginePersistentState) {
        restore(saved.persisted)
    }

    /// Takes over a saved state, repairing what does not fit together (a hand-edited or
    /// partly written file must not crash the daemon): duplicate ids are dropped, a play
    /// order that is not a permutation of the installed queue is rebuilt, and the next
    /// entry id stays above every id in use.
    mutating func restore(_ saved: PersistedEngineState) {
        collection = unique(saved.collection)
        let installedEntries = unique(saved.installed)
        let installedIDs = installedEntries.map(\.id)
        if saved.playOrder.sorted() == installedIDs.sorted(), Set(saved.playOrder).count == installedIDs.count {
            installed = InstalledQueue(entries: installedEntries, order: saved.playOrder)
        } else {
            installed = .inQueueOrder(installedEntries)
        }
        let settings = saved.settings
        modified = settings.modified
        current = saved.current
        state = current == nil ? .stopped : .paused
        volume = min(100, max(0, settings.volume))
        repeatMode = settings.repeatMode
        shuffle = settings.shuffle
        single = settings.single
        consume = settings.consume
        queueVersion = settings.queueVersion
        if shuffle == false { installed = .inQueueOrder(installed.entries) }
        let highest = (collection.map(\.id) + installedIDs + [current?.id ?? 0]).max() ?? 0
        nextEntryID = max(settings.nextEntryID, highest + 1)
        random = ShuffleRandom(state: settings.randomState)
        lastKnownPosition = state == .stopped ? 0 : clampedPosition(saved.position)
    }

    private func unique(_ entries: [QueueEntry]) -> [QueueEntry] {
        var seen: Set<EntryID> = []
        return entries.filter { seen.insert($0.id).inserted }
    }
}
