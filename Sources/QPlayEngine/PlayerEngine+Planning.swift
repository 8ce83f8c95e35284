import QPlayModel

extension PlayerEngine {
    /// Computes a track change without performing it: installs a modified collection,
    /// then picks the entry to play (nil: the queue ends). Uses a copy of the shuffle
    /// generator, so predicting and performing give the same result.
    func plan(_ reason: ChangeReason) -> TrackChange {
        var random = self.random
        var queue = installed
        if modified {
            var source = collection
            if case .removedPlaying(_, let before) = reason { source = before }
            queue = installed.installing(source, current: current?.id, shuffle: shuffle, random: &random)
        }
        var target: EntryID?
        switch reason {
        case .trackEnded:
            if repeatMode == .one, let id = current?.id, queue.contains(id) {
                target = id
            } else {
                target = entry(after: current?.id, in: &queue, wrap: repeatMode == .all, random: &random)
            }
        case .skipForward:
            target = entry(after: current?.id, in: &queue, wrap: repeatMode != .off, random: &random)
        case .skipBack:
            target = entry(before: current?.id, in: queue)
        case .jump(let id):
            if shuffle { queue = .shuffledRound(queue.entries, first: id, random: &random) }
            target = id
        case .removedPlaying(let id, _):
            // The removed entry's place in the play order is taken by its old neighbour.
            let place = queue.orderIndex(of: id, near: currentIndexHint)
            queue = queue.removing(id)
            if let place, place < queue.orderCount {
                target = queue.orderID(at: place)
            } else {
                target = wrapAround(&queue, after: id, wrap: repeatMode != .off, random: &random)
            }
        case .start:
            target = queue.entries.first?.id
            if shuffle { queue = .shuffledRound(queue.entries, first: target, random: &random) }
        }
        let consumed = consumedEntry(by: reason, target: target)
        if let consumed {
            // The entry left behind goes; a round that wrapped around to it has nothing
            // else to play.
            if target == consumed { target = nil }
            queue = queue.removing(consumed)
        }
        switch reason {
        case .trackEnded, .skipForward, .removedPlaying:
            target = skippingUnplayable(target, in: &queue, random: &random)
        case .skipBack, .jump, .start:
            break  // the user asked for this entry: try it again
        }
        // In queue order the entry after the current one stands next to it.
        let near = currentIndexHint.map { $0 + 1 }
        return TrackChange(
            queue: queue, random: random, installs: modified, entry: target.flatMap { queue.entry($0, near: near) },
            stops: reason == .trackEnded && ((single && repeatMode == .off) || pausesAtTrackEnd), consumed: consumed)
    }

    /// Consume mode takes the entry the player leaves when it ends or is skipped (as
    /// MPD: previous and jump keep it), not one that repeat one plays again.
    private func consumedEntry(by reason: ChangeReason, target: EntryID?) -> EntryID? {
        guard consume, let id = current?.id else { return nil }
        switch reason {
        case .trackEnded: return repeatMode == .one && target == id ? nil : id
        case .skipForward: return id
        case .skipBack, .jump, .removedPlaying, .start: return nil
        }
    }

    /// The entry after `id` in the play order. When `id` is no longer in the queue (the
    /// collection was cleared while it played), the first entry after it in the old play
    /// order that is still there: its old neighbour.
    private func entry(
        after id: EntryID?, in queue: inout InstalledQueue, wrap: Bool, random: inout ShuffleRandom
    ) -> EntryID? {
        guard let id else { return nil }
        if let place = queue.orderIndex(of: id, near: id == current?.id ? currentIndexHint : nil) {
            if place + 1 < queue.orderCount { return queue.orderID(at: place + 1) }
        } else if let place = installed.orderIndex(of: id),
            let neighbour = installed.order[(place + 1)...].first(where: queue.contains)
        {
            return neighbour
        }
        return wrapAround(&queue, after: id, wrap: wrap, random: &random)
    }

    /// The start of the next round when repeating: the same order again, or with shuffle
    /// on a freshly shuffled round that does not begin with the entry that just played.
    private func wrapAround(
        _ queue: inout InstalledQueue, after id: EntryID, wrap: Bool, random: inout ShuffleRandom
    ) -> EntryID? {
        guard wrap, queue.orderCount > 0 else { return nil }
        if shuffle { queue = .shuffledRound(queue.entries, avoiding: id, random: &random) }
        return queue.orderID(at: 0)
    }

    /// The entry before `id` in the play order; with repeat on, the first wraps to the
    /// last. Nil when there is none (the caller restarts the current track instead).
    private func entry(before id: EntryID?, in queue: InstalledQueue) -> EntryID? {
        guard let id, let place = queue.orderIndex(of: id, near: id == current?.id ? currentIndexHint : nil) else {
            return nil
        }
        if place > 0 { return queue.orderID(at: place - 1) }
        return repeatMode != .off && queue.orderCount > 1 ? queue.orderID(at: queue.orderCount - 1) : nil
    }

    private func skippingUnplayable(
        _ target: EntryID?, in queue: inout InstalledQueue, random: inout ShuffleRandom
    ) -> EntryID? {
        var candidate = target
        var seen: Set<EntryID> = []
        while let id = candidate, unplayable.contains(id) {
            guard seen.insert(id).inserted else { return nil }
            candidate = entry(after: id, in: &queue, wrap: repeatMode != .off, random: &random)
        }
        return candidate
    }
}
