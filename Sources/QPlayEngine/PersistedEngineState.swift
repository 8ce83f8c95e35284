import QPlayModel

/// The engine's state as the daemon's row store keeps it: the lists of entries (shared
/// with the engine, copy-on-write, so taking this after every edit costs no copy) and the
/// small settings. The store writes what changed between two of these, not the whole.
public struct PersistedEngineState: Sendable {
    /// The queue the user sees and edits, in order.
    public var collection: [QueueEntry]
    /// The queue the player follows, in queue order.
    public var installed: [QueueEntry]
    /// The installed entries' ids in the order they play (a permutation with shuffle on).
    public var playOrder: [EntryID]
    public var current: QueueEntry?
    public var settings: PersistedEngineSettings
    /// Seconds into `current`; the store keeps positions apart (they are not edits).
    public var position: Double
    /// The engine's change counts of `collection` and of `installed`/`playOrder`: equal
    /// counts from the same engine mean the list did not change. Nil: unknown, compare.
    public var revisions: Revisions?

    public struct Revisions: Sendable, Hashable {
        public var collection: UInt64 = 0
        public var installed: UInt64 = 0

        public init(collection: UInt64 = 0, installed: UInt64 = 0) {
            self.collection = collection
            self.installed = installed
        }
    }

    public init(
        collection: [QueueEntry], installed: [QueueEntry], playOrder: [EntryID], current: QueueEntry?,
        settings: PersistedEngineSettings, position: Double = 0, revisions: Revisions? = nil
    ) {
        self.collection = collection
        self.installed = installed
        self.playOrder = playOrder
        self.current = current
        self.settings = settings
        self.position = position
        self.revisions = revisions
    }
}

extension PersistedEngineState: Equatable {
    /// The same queue, entry and settings (the change counts are bookkeeping).
    public static func == (lhs: PersistedEngineState, rhs: PersistedEngineState) -> Bool {
        lhs.collection == rhs.collection && lhs.installed == rhs.installed && lhs.playOrder == rhs.playOrder
            && lhs.current == rhs.current && lhs.settings == rhs.settings && lhs.position == rhs.position
    }
}

/// The small part of the persisted state: one row.
public struct PersistedEngineSettings: Sendable, Hashable {
    public var current: EntryID?
    public var modified: Bool
    public var volume: Int
    public var repeatMode: RepeatMode
    public var shuffle: Bool
    public var nextEntryID: EntryID
    public var randomState: UInt64
    public var single: Bool
    public var consume: Bool
    /// The collection's edit count (`QueueSnapshot.version`): kept across restarts so a
    /// client that remembered a version never sees it again for another list.
    public var queueVersion: UInt64

    public init(
        current: EntryID?, modified: Bool, volume: Int, repeatMode: RepeatMode, shuffle: Bool,
        nextEntryID: EntryID, randomState: UInt64, single: Bool = false, consume: Bool = false,
        queueVersion: UInt64 = 0
    ) {
        self.current = current
        self.modified = modified
        self.volume = volume
        self.repeatMode = repeatMode
        self.shuffle = shuffle
        self.nextEntryID = nextEntryID
        self.randomState = randomState
        self.single = single
        self.consume = consume
        self.queueVersion = queueVersion
    }
}

extension EnginePersistentState {
    /// The same state in the row store's shape: how a state saved as one JSON document
    /// (the first format of `state.sqlite`) is carried over.
    public var persisted: PersistedEngineState {
        var byID: [EntryID: QueueEntry] = [:]
        for stored in entries {
            byID[stored.id] = QueueEntry(id: stored.id, track: stored.track.track)
        }
        return PersistedEngineState(
            collection: collection.compactMap { byID[$0] },
            installed: installed.compactMap { byID[$0] },
            playOrder: playOrder,
            current: current.flatMap { byID[$0] },
            settings: PersistedEngineSettings(
                current: current, modified: modified, volume: volume, repeatMode: repeatMode,
                shuffle: shuffle, nextEntryID: nextEntryID, randomState: randomState,
                single: single ?? false, consume: consume ?? false, queueVersion: queueVersion ?? 0),
            position: position)
    }
}
