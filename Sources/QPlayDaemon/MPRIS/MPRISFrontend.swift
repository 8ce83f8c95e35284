import CSDBus
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// MPRIS on the D-Bus session bus (docs/MPRIS.md): media keys, playerctl and desktop widgets
/// drive the same `PlayerService` as every other frontend. The bus has a thread of its
/// own (`MPRISBusLoop`), asleep in `poll` until the bus or a core event wakes it: core
/// events only set a flag and write to an eventfd, so neither the audio thread nor the
/// socket server ever waits for the bus, and an idle player costs no wake-ups.
final class MPRISFrontend: Frontend, Sendable {
    private let player: PlayerService
    private let library: LibraryService
    private let log: Logger
    /// Written by `receive` and `stop`, read by the bus thread.
    private let wake: Int32
    private let signals = Mutex(MPRISWakeReasons())
    private let finished = DispatchSemaphore(value: 0)

    init(player: PlayerService, library: LibraryService, log: Logger) {
        self.player = player
        self.library = library
        self.log = log
        wake = qplay_mpris_wake_descriptor()
    }

    deinit {
        if wake >= 0 { close(wake) }
    }

    func start() {
        guard wake >= 0 else {
            log.error("MPRIS is off: no eventfd for the D-Bus thread (errno \(errno))")
            return
        }
        let thread = Thread { [self] in
            qplay_mpris_name_thread("qplay-mpris")
            let loop = MPRISBusLoop(
                player: player, library: library, log: log, wakeDescriptor: wake,
                takeWakeReasons: { self.signals.withLock { reasons in
                    defer { reasons = MPRISWakeReasons(stopping: reasons.stopping) }
                    return reasons
                } })
            loop.run()
            finished.signal()
        }
        thread.start()
    }

    /// Ends the bus thread (releasing the name) and waits for it, at most `limit`.
    func stop(limit: Duration = .seconds(1)) {
        signals.withLock { $0.stopping = true }
        poke()
        let (seconds, attoseconds) = limit.components
        _ = finished.wait(timeout: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)))
    }

    /// In the daemon's group: the bus thread runs until the group shuts down.
    func run() async {
        start()
        try? await gracefulShutdown()
        stop()
    }

    func receive(_ event: CoreEvent) {
        switch event {
        case .player, .queue:
            let first = signals.withLock { reasons in
                defer { reasons.playerChanged = true }
                return !reasons.playerChanged
            }
            if first { poke() }
        case .scan, .error, .outputError, .storage, .level, .playlists:
            break
        case .alarm:
            // An alarm that plays changes the player, which comes as a player event.
            break
        }
    }

    private func poke() {
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }
}

/// Why the bus thread was woken since it last looked.
struct MPRISWakeReasons: Sendable {
    var playerChanged = false
    var stopping = false
}
