import QPlayModel

/// The queue the player follows (as opposed to the collection the user edits) and the
/// order it is played in: queue order, or with shuffle on a permutation of it.
///
/// In queue order the ids need not be listed: every edit of a modified collection plans
/// the successor over the collection installed (`PlayerEngine.plan`), and listing its
/// 100,000 ids there took a fresh 800 KB array and most of an edit's time in the engine.
/// Such a plan finds entries by position (`near:` hints) instead; the engine lists the
/// ids once the queue is really installed (`materialized()`).
struct InstalledQueue: Sendable, Equatable {
    let entries: [QueueEntry]
    /// The play order when it is not queue order (shuffle, or as restored); nil: queue order.
    private let shuffledOrder: [EntryID]?
    /// The ids of `entries`, in queue order, or nil while not listed. Every track change
    /// looks entries up by id a few times; over 8-byte ids that look reads a 40th of the
    /// memory a look over the entries (a track each) does, which at 100,000 entries is
    /// the difference between tens of microseconds and milliseconds.
    private let ids: [EntryID]?

    init(entries: [QueueEntry], order: [EntryID]) {
        self.init(entries: entries, shuffledOrder: order, ids: entries.map(\.id))
    }

    private init(entries: [QueueEntry], shuffledOrder: [EntryID]?, ids: [EntryID]?) {
        self.entries = entries
        self.shuffledOrder = shuffledOrder
        self.ids = ids
    }

    static let empty = InstalledQueue(entries: [], shuffledOrder: nil, ids: [])

    /// `entries` played in queue order, ids not listed yet.
    static func inQueueOrder(_ entries: [QueueEntry]) -> InstalledQueue {
        InstalledQueue(entries: entries, shuffledOrder: nil, ids: nil)
    }

    /// The same queue with its ids listed: what the engine keeps installed (its play
    /// order is saved after every track change, and looks by id stay cheap).
    func materialized() -> InstalledQueue {
        guard ids == nil else { return self }
        return InstalledQueue(entries: entries, shuffledOrder: shuffledOrder, ids: entries.map(\.id))
    }

    var isMaterialized: Bool { ids != nil }

    /// Every entry id once, in the order they play. Lists them when not materialized.
    var order: [EntryID] {
        shuffledOrder ?? ids ?? entries.map(\.id)
    }

    var orderCount: Int { entries.count }

    /// The id at place `place` of the play order.
    func orderID(at place: Int) -> EntryID {
        shuffledOrder?[place] ?? ids?[place] ?? entries[place].id
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
        index(of: id, near: nil) != nil
    }

    /// The place of `id` in `entries`: `hint` or a neighbour of it when that holds the
    /// entry, else found by a look through the ids (or the entries, not listed).
    func index(of id: EntryID, near hint: Int?) -> Int? {
        if let hint {
            for guess in [hint, hint + 1, hint - 1] where entries.indices.contains(guess) {
                if entries[guess].id == id { return guess }
            }
        }
        if let ids { return ids.firstIndex(of: id) }
        return entries.firstIndex { $0.id == id }
    }

    func entry(_ id: EntryID, near hint: Int? = nil) -> QueueEntry? {
        index(of: id, near: hint).map { entries[$0] }
    }

    /// The place of `id` in the play order; `hint` (a place in `entries`) is used in
    /// queue order, where the two are the same.
    func orderIndex(of id: EntryID, near hint: Int? = nil) -> Int? {
        if let shuffledOrder { return shuffledOrder.firstIndex(of: id) }
        return index(of: id, near: hint)
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
        let oldIDs = Set(ids ?? entries.map(\.id))
        var order = self.order.filter { newIDs.contains($0) }
        let firstUnplayed = current.flatMap { order.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        for entry in collection where !oldIDs.contains(entry.id) {
            order.insert(entry.id, at: Int.random(in: firstUnplayed...order.count, using: &random))
        }
        return InstalledQueue(entries: collection, order: order)
    }

    func removing(_ id: EntryID) -> InstalledQueue {
        InstalledQueue(
            entries: entries.filter { $0.id != id }, shuffledOrder: shuffledOrder?.filter { $0 != id },
            ids: ids?.filter { $0 != id })
    }

    /// The same entries played in the same order (whether the ids are listed is no
    /// difference).
    static func == (lhs: InstalledQueue, rhs: InstalledQueue) -> Bool {
        lhs.entries == rhs.entries && lhs.shuffledOrder == rhs.shuffledOrder
    }
}
