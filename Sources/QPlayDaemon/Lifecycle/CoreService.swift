import NIOCore
import QPlayLibrary
import ServiceLifecycle

/// The core as the first service of the daemon's group, so the last to stop: its
/// shutdown runs after every frontend has closed its listeners and connections, and no
/// request can change the state it saves.
///
/// Start-up: the player is started before the group runs (`Daemon.run`); this service
/// waits until qplay's socket listens, then starts what clients should see from their
/// first connection — the alarms (one due at start-up is announced to clients that
/// connect right away), the level meter, the search table, the start-up scan and the
/// watcher. Shutdown, in this order: the library and playlist folder watchers, alarms,
/// level meter, then the player, which saves the state and closes the audio device.
final class CoreService: Service {
    private let player: PlayerService
    private let alarms: AlarmService
    private let meter: LevelMeterService
    private let meterLoop: any EventLoop
    private let listening: StartupGate
    private let startUp: @Sendable () async -> LibraryWatcher?
    /// Started by the daemon before the group runs; stopped here before the state is saved.
    private let playlistWatcher: PlaylistFolderWatcher?

    /// `startUp`: the daemon's own steps once the socket listens (log line, scan,
    /// watcher); returns the watcher to stop.
    init(
        player: PlayerService, alarms: AlarmService, meter: LevelMeterService,
        meterLoop: any EventLoop, listening: StartupGate, playlistWatcher: PlaylistFolderWatcher? = nil,
        startUp: @escaping @Sendable () async -> LibraryWatcher?
    ) {
        self.playlistWatcher = playlistWatcher
        self.player = player
        self.alarms = alarms
        self.meter = meter
        self.meterLoop = meterLoop
        self.listening = listening
        self.startUp = startUp
    }

    func run() async throws {
        let levels = meter.start(on: meterLoop)
        // A group that shuts down before the socket listens opens the gate too: then
        // nothing more is started.
        let gate = listening
        let listens = await withGracefulShutdownHandler {
            await gate.wait()
        } onGracefulShutdown: {
            gate.open(succeeded: false)
        }
        var watcher: LibraryWatcher?
        if listens {
            await alarms.start()
            watcher = await startUp()
        }
        try? await gracefulShutdown()
        watcher?.stop()
        playlistWatcher?.stop()
        await alarms.shutdown()
        meter.stop()
        levels.cancel()
        await player.shutdown()
    }
}
