import QPlayModel

extension PlayerEngine {
    /// The entries just before and after `id` in the order the queue plays (the
    /// installed play order, shuffled or not; an entry not installed yet is looked up
    /// in the collection the user edits). No wrapping around: the first entry has no
    /// entry before it even with repeat on.
    public func playOrderNeighbours(of id: EntryID) -> (before: QueueEntry?, after: QueueEntry?) {
        if let place = installed.orderIndex(of: id) {
            let before = place > 0 ? installed.entry(installed.order[place - 1]) : nil
            let after = place + 1 < installed.order.count ? installed.entry(installed.order[place + 1]) : nil
            return (before, after)
        }
        guard let place = collection.firstIndex(where: { $0.id == id }) else { return (nil, nil) }
        let before = place > 0 ? collection[place - 1] : nil
        let after = place + 1 < collection.count ? collection[place + 1] : nil
        return (before, after)
    }

    /// Whether `entry` is played as part of an album: its neighbour before or after it
    /// in the play order is from the same album (what ReplayGain's `auto` mode asks).
    public func playsWithinAlbum(_ entry: QueueEntry) -> Bool {
        let (before, after) = playOrderNeighbours(of: entry.id)
        return [before, after].contains { neighbour in
            neighbour.map { ReplayGainSettings.sharesAlbum($0.track, entry.track) } ?? false
        }
    }
}
