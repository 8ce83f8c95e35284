import Dispatch
import Logging
import QPlayLibrary
import QPlayModel
import ServiceLifecycle
import Synchronization
import SystemPackage

/// Desktop notifications of track changes (`notify = true`, docs/BEHAVIOUR.md): when a
/// track begins by itself — the one before ended, or failed — and not because a command
/// chose it within the last second, the title, artist, album and cover are sent to
/// org.freedesktop.Notifications. `receive` only compares entry ids and hands the
/// change on; the picture lookup and the D-Bus call run on a queue of their own, so
/// neither the audio thread nor the event path ever waits for the notification daemon.
/// Changes that come while a call is under way collapse into the latest.
final class TrackNotifier: Frontend, Sendable {
    private struct State {
        var entry: EntryID?
        var pending: Track?
        var sending = false
    }

    private let commanded: CommandedTrackChanges
    private let musicDirectory: FilePath
    private let artwork: ArtworkLookup
    private let cache: ArtCache?
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "qplay-notify")
    private let bus: Mutex<NotificationBus>

    /// `artwork` and `cache` are the library's, shared with MPRIS: a cover is read and
    /// written out once for both.
    init(
        commanded: CommandedTrackChanges, musicDirectory: FilePath, artwork: ArtworkLookup, cache: ArtCache?,
        log: Logger
    ) {
        self.commanded = commanded
        self.musicDirectory = musicDirectory
        self.artwork = artwork
        self.cache = cache
        bus = Mutex(NotificationBus(log: log))
        log.info("notifications on: track changes go to org.freedesktop.Notifications on the D-Bus session bus")
    }

    func run() async {
        try? await gracefulShutdown()
    }

    func receive(_ event: CoreEvent) {
        guard case .player(let snapshot) = event else { return }
        let entry = snapshot.status.entry
        let startSending = state.withLock { state -> Bool in
            guard state.entry != entry?.id else { return false }
            state.entry = entry?.id
            guard let entry, snapshot.status.state == .playing, !commanded.asked(for: entry.id) else { return false }
            state.pending = entry.track
            defer { state.sending = true }
            return !state.sending
        }
        if startSending { queue.async { self.drain() } }
    }

    /// On `queue`: sends the latest change until none is left.
    private func drain() {
        while let track = state.withLock({ state -> Track? in
            defer { state.pending = nil }
            if state.pending == nil { state.sending = false }
            return state.pending
        }) {
            let notification = TrackNotification(
                track: track, musicDirectory: musicDirectory, artwork: artwork, cache: cache)
            bus.withLock { $0.show(notification) }
        }
    }
}
