import QPlayEngine
import QPlayModel
import QPlayLibrary

/// The services MPD commands reach, the same ones `CommandDispatcher` uses: the frontend
/// only translates.
struct MPDCommandContext: Sendable {
    let player: PlayerService
    let library: LibraryService
    let startedAt: ContinuousClock.Instant
    /// Update jobs and playing time, learnt from the core's events.
    let activity: MPDActivity
    /// The stored playlists' folder.
    let playlists: PlaylistStore
    /// The daemon's one writer of ratings, the JSON `rate`'s too.
    let statistics: PlayStatistics
    /// The queue's songs as last written, for `playlistinfo` and its kin.
    let queueListing = MPDQueueListing()
    /// Trims the heap after large answers, as for the JSON frontend.
    let memory = IdleMemoryRelease()

    var index: LibraryIndex { library.index }

    /// Seconds since qplayd started (`stats` uptime).
    var uptime: Int {
        Int((ContinuousClock.now - startedAt).components.seconds)
    }
}

extension QueueSnapshot {
    /// The collection index of entry `id`, looked for first right after `near` (the next
    /// entry usually follows the current one), else anywhere.
    func position(of id: EntryID, near: Int?) -> Int? {
        if let near, near + 1 < entries.count, entries[near + 1].id == id { return near + 1 }
        return entries.firstIndex { $0.id == id }
    }
}
