import QPlayAudio
import QPlayModel

/// A change the services tell every frontend of, in the model's terms; each frontend
/// translates it into its own events (JSON event lines, MPD's idle subsystems).
enum CoreEvent: Sendable, Equatable {
    /// Track, state, options, position jump, seeking, volume or the output changed.
    case player(PlayerSnapshot)
    /// The collection was edited or installed.
    case queue(QueueChangeSummary)
    /// A library scan progressed or ended.
    case scan(ScanProgressSummary)
    /// The player could not play an entry and skipped it.
    case error(entry: QueueEntry, reason: String)
    /// An output failed or stalled (`reason` without its name); it is retried, or
    /// recovers by itself.
    case outputError(output: String, reason: String)
    /// Saving the player state started failing (why), or works again (nil).
    case storage(String?)
    /// The output's level while playing (only while metering is on).
    case level(AudioLevel)
    /// An alarm's time came: it played, or `skipped` says why not.
    case alarm(AlarmFiring)
    /// A stored playlist was saved, edited, renamed or removed.
    case playlists
}

/// `CoreEvent.alarm`.
struct AlarmFiring: Sendable, Hashable {
    var id: Int64
    var time: String
    /// When it was due, ISO-8601 local time.
    var due: String
    var skipped: String?
}

/// `CoreEvent.queue`: the collection's length, whether it waits to be installed, and
/// its edit count (`QueueSnapshot.version`; an install leaves it alone).
struct QueueChangeSummary: Sendable, Hashable {
    var length: Int
    var modified: Bool
    var version: UInt64
}

/// `CoreEvent.scan`: files seen of `total` (nil while the walk runs), files per second,
/// and whether the scan has ended. The last event of a scan has `done` set and says
/// whether the library changed (tracks added, updated or removed); a scan that failed
/// ends with `seen` 0 and no change.
struct ScanProgressSummary: Sendable, Hashable {
    var seen: Int
    var total: Int?
    var rate: Double
    var done: Bool
    var libraryChanged = false
}

/// A frontend listening to the core. `receive` is called on the publisher's thread (a
/// service's executor or a scan thread), in publishing order per publisher: it must
/// only hand the event on, never block or wait for a client.
protocol CoreEventSubscriber: Sendable {
    func receive(_ event: CoreEvent)
}
