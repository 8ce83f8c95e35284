import QPlayModel

/// Windows of the collection: what a client shows of a long queue. Only the window's
/// entries are copied out, so a window of 100,000 entries costs what its own entries do.
extension PlayerEngine {
    /// `count` entries from collection index `start`, clipped to the collection (a start
    /// at or past the end answers none, with the total to page by).
    public func queue(from start: Int, count: Int) -> QueueSnapshot {
        let lower = min(max(0, start), collection.count)
        let upper = lower + min(max(0, count), collection.count - lower)
        return window(lower..<upper)
    }

    /// `radius` entries either side of the playing entry, and that entry; from the
    /// collection's start (`2 × radius + 1` entries) when nothing in it plays. Near either
    /// end the window is cut there, not shifted: the playing entry stays in its middle.
    public func queue(around radius: Int) -> QueueSnapshot {
        // No wider than the collection: then the sums below cannot overflow.
        let radius = min(max(0, radius), collection.count)
        guard let id = current?.id, let place = collectionIndex(of: id, near: currentIndexHint) else {
            return queue(from: 0, count: 2 * radius + 1)
        }
        return window(max(0, place - radius)..<min(collection.count, place + radius + 1))
    }

    private func window(_ range: Range<Int>) -> QueueSnapshot {
        QueueSnapshot(
            entries: Array(collection[range]), current: current?.id, modified: modified, version: queueVersion,
            start: range.lowerBound, total: collection.count)
    }
}
