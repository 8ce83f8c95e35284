import QPlayModel
import Synchronization

/// The last track change a command made: which entry it moved to, and when. A desktop
/// notification is for a track change nobody asked for (docs/BEHAVIOUR.md): a user who
/// pressed next knows what comes, a track that ended by itself is news. Commands from
/// every frontend run through `PlayerService.perform`, `press` and `release`, which
/// record here before their events are published, so the notifier reading it while
/// handling the event sees the command that caused it.
final class CommandedTrackChanges: Sendable {
    /// How long after a command a change to the entry it chose still counts as asked for.
    static let window = Duration.seconds(1)

    private struct Change {
        var entry: EntryID
        var at: ContinuousClock.Instant
    }

    private let last = Mutex<Change?>(nil)

    func record(_ entry: EntryID, at instant: ContinuousClock.Instant = .now) {
        last.withLock { $0 = Change(entry: entry, at: instant) }
    }

    /// Whether a command moved the player to `entry` within `window` before `now`.
    func asked(for entry: EntryID, now: ContinuousClock.Instant = .now) -> Bool {
        last.withLock { change in
            guard let change, change.entry == entry else { return false }
            return now - change.at <= Self.window
        }
    }
}

extension PlayerService {
    /// After a command ran the engine: records the change of now-playing it made, if any.
    func noteCommandedChange(from before: EntryID?) {
        let after = inPlace { $0.queue.current }
        if let after, after != before { commandedChanges.record(after) }
    }
}
