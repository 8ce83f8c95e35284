import QPlayModel

/// The queue the player follows (as opposed to the collection the user edits) and the
/// order it is played in: queue order, or with shuffle on a permutation of it.
struct InstalledQueue: Sendable, Equatable {
    let entries: [QueueEntry]
    /// Every entry id of `entries` once, in the order they play.
    let order: [EntryID]
    /// The ids of `entries`, in queue order. Every track change looks entries up by id a
    /// few times; over 8-byte ids that look reads a 40th of the memory a look over the
    /// entries (a track each) does, which at 100,000 entries is the difference between
    /// tens of microseconds and milliseconds.
    private let ids: [EntryID]

    init(entries: [QueueEntry], order: [EntryID]) {
        self.entries = entries
        self.order = order
        ids = entries.map(\.id)
    }

    static let empty = InstalledQueue(entries: [], order: [])

    static func inQueueOrder(_ entries: [QueueEntry]) -> InstalledQueue {
        let ids = entries.map(\.id)
        return InstalledQueue(entries: entries, order: ids, ids: ids)
    }

    private init(entries: [QueueEntry], order: [EntryID], ids: [EntryID]) {
        self.entries = entries
        self.order = order
        self.ids = ids
    }

    /// A fresh shuffled round over `entries`. `first` leads when given; otherwise the
    /// round avoids starting with `avoiding` (the entry that just played) when it can.
    static func shuffledRound(
        _ entries: [QueueEntry], first: EntryID? = nil, avoiding: EntryID? = nil,
        random: inout ShuffleRandom
    ) -> InstalledQueue {
        var rest = entries.map(\.id).filter { $0 != first }
        rest.shuffle(using: &random)
        if first == nil, rest.count > 1, let avoiding, rest.first == avoiding {
            let swapWith = Int.random(in: 1..<rest.count, using: &random)
            rest.swapAt(0, swapWith)
        }
        return InstalledQueue(entries: entries, order: (first.map { [$0] } ?? []) + rest)
    }

    func contains(_ id: EntryID) -> Bool {
        ids.contains(id)
    }

    func entry(_ id: EntryID) -> QueueEntry? {
        ids.firstIndex(of: id).map { entries[$0] }
    }

    func orderIndex(of id: EntryID) -> Int? {
        order.firstIndex(of: id)
    }

    /// The collection as the new installed queue. Shuffled: entries already installed
    /// keep their relative play order, and entries new to the queue are dealt into random
    /// places among those not yet played in this round (after `current`), as MPD does
    /// with songs added in random mode.
    func installing(
        _ collection: [QueueEntry], current: EntryID?, shuffle: Bool, random: inout ShuffleRandom
    ) -> InstalledQueue {
        guard shuffle else { return .inQueueOrder(collection) }
        let newIDs = Set(collection.map(\.id))
        let oldIDs = Set(ids)
        var order = self.order.filter { newIDs.contains($0) }
        let firstUnplayed = current.flatMap { order.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        for entry in collection where !oldIDs.contains(entry.id) {
            order.insert(entry.id, at: Int.random(in: firstUnplayed...order.count, using: &random))
        }
        return InstalledQueue(entries: collection, order: order)
    }

    func removing(_ id: EntryID) -> InstalledQueue {
        InstalledQueue(
            entries: entries.filter { $0.id != id }, order: order.filter { $0 != id }, ids: ids.filter { $0 != id })
    }
}
