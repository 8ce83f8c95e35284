import QPlayEngine
import QPlayModel

/// Turns the core's events into MPD's idle subsystems. A player event carries the whole
/// player; what changed since the last one decides the subsystems: the volume is
/// `mixer`, the play modes `options`, anything else (state, entry, a seek) `player`.
struct MPDEventTranslator {
    private var last: EngineStatus?
    private var queueVersion: UInt64?
    private var scanning = false

    /// `initial`: the player and queue when the frontend starts, what the first events
    /// are compared with.
    init(initial: EngineStatus? = nil) {
        last = initial
        queueVersion = initial?.queueVersion
    }

    mutating func subsystems(for event: CoreEvent) -> MPDSubsystems {
        switch event {
        case .player(let snapshot):
            return player(snapshot.status)
        case .queue(let change):
            defer { queueVersion = change.version }
            // An install alone (the version stays) is no edit of the list MPD clients see.
            return queueVersion == change.version ? [] : .playlist
        case .scan(let progress):
            var changed = MPDSubsystems()
            if progress.done {
                changed.insert(.update)
                if progress.libraryChanged { changed.insert(.database) }
                scanning = false
            } else if !scanning {
                scanning = true
                changed.insert(.update)
            }
            return changed
        case .error:
            // The skipped entry's track change comes as a player event of its own.
            return .player
        case .playlists:
            return MPDSubsystems(.storedPlaylist)
        case .storage, .alarm, .level, .outputError:
            // An alarm that plays changes the player, which comes as a player event.
            return []
        }
    }

    private mutating func player(_ status: EngineStatus) -> MPDSubsystems {
        defer { last = status }
        guard let last else { return [.player, .mixer, .options] }
        var changed = MPDSubsystems()
        if status.volume != last.volume { changed.insert(.mixer) }
        if status.repeatMode != last.repeatMode || status.shuffle != last.shuffle || status.single != last.single
            || status.consume != last.consume
        {
            changed.insert(.options)
        }
        let playerChanged =
            status.state != last.state || status.entry?.id != last.entry?.id || status.seeking != last.seeking
            || status.lastError != last.lastError
        // A player event that changes none of these is a seek (or the output changed):
        // MPD tells of a seek as `player`.
        if playerChanged || changed.isEmpty { changed.insert(.player) }
        return changed
    }
}
