import Logging
import NIOPosix
import QPlayAudio
import QPlayEngine
import QPlayLibrary
import QPlayModel
import QPlayProtocol
import QPlayStreamOutput
import ServiceLifecycle
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// qplayd from start to exit: prepares folders, takes the single-instance lock, opens
/// the library index and the saved state, starts the audio thread, then runs the core
/// and the frontends as one `ServiceGroup` until SIGINT/SIGTERM shuts it down in
/// reverse order (frontends close, then the core saves and closes the device); releases
/// the lock and returns the exit status.
public enum Daemon {
    public static func run(_ configuration: DaemonConfiguration, log: Logger) async -> Int32 {
        let startedAt = ContinuousClock.now
        SignalHandling.ignoreSIGPIPE()
        SignalHandling.ignoreUnusedSignals()
        let connectionCap = descriptorBudget(configuration, log: log)
        do {
            for folder in try DaemonDirectories.prepare(for: configuration) {
                log.notice("made \(folder) private to this user (0700); others could enter it")
            }
        } catch {
            log.critical("\(error)")
            return DaemonExitStatus.configuration
        }
        let lock: SingleInstanceLock
        do {
            lock = try SingleInstanceLock.acquire(
                socketPath: configuration.socketPath, lockPath: configuration.lockFilePath)
        } catch {
            log.critical("\(error)")
            return DaemonExitStatus.configuration
        }
        if lock.removedStaleSocket {
            log.notice("replaced a stale socket left by an earlier qplayd at \(configuration.socketPath)")
        }

        let index: LibraryIndex
        let store: StateStore
        var libraryReplaced = false
        do {
            let opened = try LibraryIndex.openReplacingCorrupt(databasePath: configuration.libraryDatabasePath)
            index = opened.0
            if let aside = opened.movedAside {
                libraryReplaced = true
                log.error("the library index \(configuration.libraryDatabasePath) was not a usable database; moved it to \(aside) and rebuilding it by a scan")
            }
        } catch {
            log.critical("cannot open the library index \(configuration.libraryDatabasePath): \(DatabaseFiles.reason(error))")
            lock.release()
            return DaemonExitStatus.failure
        }
        do {
            store = try StateStore(
                path: configuration.stateDatabasePath,
                tracks: LibraryQueueTracks(index: index, musicDirectory: configuration.musicDirectory),
                library: index
            ) { error in
                log.error("state database: \(error)")
            }
        } catch {
            log.critical("\(error)")
            lock.release()
            return DaemonExitStatus.failure
        }
        if let aside = store.movedAside {
            log.error("the state database could not be used (\(aside.reason)); moved it to \(aside.path) and started afresh")
        }
        do {
            try ListeningKeys(store: store, index: index).bind()
        } catch {
            log.error("could not check which files the play counts and ratings are of: \(error)")
        }
        var saved: SavedPlayerState<PersistedEngineState>?
        do {
            saved = try store.load()
        } catch {
            log.error("could not restore the saved player state (\(error)); starting with an empty queue")
        }

        let events = EventPublisher()
        var decoders = DecoderRegistry.standard
        let streams = StreamMetadataBoard()
        decoders.streams = NetworkStreamOpener(board: streams, log: log)
        let output = configuration.output
        let followingOutputs = configuration.followingOutputs
        let rawFormat = configuration.rawOutputFormat
        // The web remote's /stream: an output after the others, fed what the first takes.
        let stream = configuration.httpStream.map { StreamBroadcast(encoding: $0, format: rawFormat) }
        let audio = AudioPlayer(
            makeOutput: { output.makeOutput(rawFormat: rawFormat) },
            makeFollowers: {
                followingOutputs.map { $0.makeOutput(rawFormat: rawFormat) }
                    + (stream.map { [HTTPStreamOutput(broadcast: $0)] } ?? [])
            }, decoders: decoders)
        var engine = PlayerEngine(
            configuration: EngineConfiguration(
                tapThreshold: configuration.tapThreshold, scanRate: configuration.scanRate,
                maxHold: configuration.maxHold, restartAfter: configuration.restartAfter,
                maxQueueLength: configuration.maxQueueLength, sleepFade: configuration.sleepFade,
                resumeMinDuration: configuration.resumeMinDuration),
            restoring: saved?.state)
        do {
            engine.restoreResumePoints(try BookmarkService.storedResumePoints(store: store, index: index))
        } catch {
            log.error("could not read the resume points (\(error)); tracks start from their beginning")
        }
        // The socket server's event loop, made here so the level meter's publisher runs
        // on it too; it outlives the server and ends last.
        let frontLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { frontLoop.shutdownGracefully { _ in } }
        let player = PlayerService(
            engine: engine, audio: audio, musicDirectory: configuration.musicDirectory,
            replayGain: configuration.replayGain, store: store,
            events: events, log: log, streams: streams)
        streams.onChange { token in Task { await player.streamChanged(token: token) } }
        let library = LibraryService(
            index: index, musicDirectory: configuration.musicDirectory, extensions: decoders.fileExtensions,
            events: events, log: log)
        let alarms = AlarmService(
            store: store, player: player, index: index, events: events, log: log,
            clockOffset: configuration.wallClockOffset)
        let meter = LevelMeterService(audio: audio, events: events)
        let playlists = PlaylistStore(
            folder: configuration.playlistDirectory, musicDirectory: configuration.musicDirectory,
            changed: { events.publish(.playlists) })
        // Playlists other programs write raise the event too, as the music directory is watched.
        let playlistWatcher = configuration.watch ? PlaylistFolderWatcher(store: playlists, log: log) : nil
        playlistWatcher?.start()
        let statistics = PlayStatistics(store: store, index: index, player: player, log: log)
        statistics.start()
        events.subscribe(statistics)
        let outputBudget = OutputBudget(limit: outputBudgetLimit(log: log), logger: log)
        let unwritable = unwritableTimeout(log: log)
        let dispatcher = CommandDispatcher(
            player: player, library: library, startedAt: startedAt, alarms: alarms, meter: meter,
            bookmarks: BookmarkService(store: store, player: player, index: index), statistics: statistics,
            playlists: playlists)
        let server = SocketServer(
            configuration: .init(
                socketPath: configuration.socketPath.string, unwritableTimeout: unwritable,
                maxConnections: connectionCap, connectionTimeout: configuration.connectionTimeout),
            handler: dispatcher,
            logger: log, eventLoopGroup: frontLoop, outputBudget: outputBudget,
            levelListeners: { meter.listenersChanged(to: $0) })
        var frontends: [any Frontend] = [server]
        if !configuration.mpdListen.isEmpty {
            frontends.append(
                MPDServer(
                    configuration: .init(
                        addresses: configuration.mpdListen, password: configuration.mpdPassword,
                        unwritableTimeout: unwritable, maxConnections: connectionCap,
                        connectionTimeout: configuration.connectionTimeout),
                    commands: MPDCommandContext(
                        player: player, library: library, startedAt: startedAt, activity: MPDActivity(),
                        playlists: playlists, statistics: statistics),
                    logger: log, outputBudget: outputBudget))
        }
        if !configuration.httpListen.isEmpty {
            frontends.append(
                WebFrontend(
                    settings: .init(
                        addresses: configuration.httpListen, addressesAreDefault: configuration.httpListenIsDefault,
                        password: configuration.httpPassword, extraHosts: configuration.httpHosts,
                        maxConnections: connectionCap),
                    handler: dispatcher, library: library, eventLoopGroup: frontLoop, stream: stream, logger: log))
        }
        if let mpris = mpris(configuration, player: player, library: library, log: log) {
            frontends.append(mpris)
        }
        if configuration.notify {
            frontends.append(
                TrackNotifier(
                    commanded: player.commandedChanges, musicDirectory: configuration.musicDirectory,
                    artwork: library.artwork, cache: library.artCache, log: log))
        }
        for frontend in frontends { events.subscribe(frontend) }

        let scanOnStart = configuration.scanOnStart || libraryReplaced
        let core = CoreService(
            player: player, alarms: alarms, meter: meter, meterLoop: frontLoop.next(), listening: server.listening,
            playlistWatcher: playlistWatcher
        ) {
            log.info(
                "qplayd \(QPlayVersion.current) serving \(configuration.musicDirectory) on \(configuration.socketPath), output \(output)")
            if configuration.replayGain.mode != .off {
                log.info("ReplayGain \(configuration.replayGain.mode.rawValue), preamp \(configuration.replayGain.preamp) dB")
            }
            // Ready before the first search; after the server answers, so start-up to the
            // first answered request does not wait for it.
            library.prepareSearchTable()
            if scanOnStart {
                _ = await library.startScan(subpath: nil)
            }
            return configuration.watch ? library.watch(configuration) : nil
        }
        // One ordered start and one ordered shutdown: the group starts the services in
        // this order and, on a signal or when one fails, shuts them down in reverse —
        // each frontend stops accepting and closes its connections, then the core
        // saves the state and closes the device.
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: ([core] + frontends as [any Service]).map {
                    .init(
                        service: $0, successTerminationBehavior: .gracefullyShutdownGroup,
                        failureTerminationBehavior: .gracefullyShutdownGroup)
                },
                logger: log))
        // Signals through `SignalHandling`, not the group's own signal sources (dispatch
        // signal sources lose signals in a threaded process on Linux; see there).
        let signals = SignalHandling { signal in
            log.info("signal \(signal): saving state and shutting down")
            await group.triggerGracefulShutdown()
        }
        defer { signals.cancel() }

        let restoredPosition = saved.map { saved in
            saved.position.flatMap { position in
                position.entry == engine.queue.current ? position.seconds : nil
            } ?? saved.state.position
        } ?? 0
        await player.start(restoredPosition: restoredPosition)
        do {
            try await group.run()
        } catch let error as ServerError {
            // qplay's own socket: it may be another daemon's, so it is left in place.
            log.critical("\(error)")
            lock.release()
            return DaemonExitStatus.configuration
        } catch let error as FrontendFailure {
            log.critical("\(error)")
            lock.release(removingSocket: true)
            return DaemonExitStatus.configuration
        } catch {
            log.critical("\(error)")
            lock.release(removingSocket: true)
            return DaemonExitStatus.failure
        }
        lock.release(removingSocket: true)
        return DaemonExitStatus.success
    }

    /// MPRIS on the session bus when `mpris` is on and DBUS_SESSION_BUS_ADDRESS names a
    /// bus (as a desktop session and the systemd user manager set it).
    private static func mpris(
        _ configuration: DaemonConfiguration, player: PlayerService, library: LibraryService, log: Logger
    ) -> MPRISFrontend? {
        guard configuration.mpris else {
            log.info("MPRIS off (mpris = false or --no-mpris)")
            return nil
        }
        guard let address = getenv("DBUS_SESSION_BUS_ADDRESS"), address.pointee != 0 else {
            log.info("MPRIS off: DBUS_SESSION_BUS_ADDRESS is not set (no D-Bus session bus)")
            return nil
        }
        return MPRISFrontend(player: player, library: library, log: log)
    }

    /// The bound on all clients' unread output together: `OutputBudget.defaultLimit`, or
    /// `QPLAYD_OUTPUT_BUDGET` bytes (the tests set a small one to see it hold).
    private static func outputBudgetLimit(log: Logger) -> Int {
        guard let text = getenv("QPLAYD_OUTPUT_BUDGET").map({ String(cString: $0) }), !text.isEmpty else {
            return OutputBudget.defaultLimit
        }
        guard let bytes = Int(text), bytes > 0 else {
            log.warning("QPLAYD_OUTPUT_BUDGET=\(text) is not a positive number of bytes; using \(OutputBudget.defaultLimit)")
            return OutputBudget.defaultLimit
        }
        log.notice("unread output of all clients bounded to \(bytes) bytes (QPLAYD_OUTPUT_BUDGET)")
        return bytes
    }

    /// How long a connection may stay unwritable with no byte leaving: 30 s, or
    /// `QPLAYD_UNWRITABLE_TIMEOUT` seconds (the tests set a short one).
    private static func unwritableTimeout(log: Logger) -> Duration {
        guard let text = getenv("QPLAYD_UNWRITABLE_TIMEOUT").map({ String(cString: $0) }), !text.isEmpty else {
            return .seconds(30)
        }
        guard let seconds = Double(text), seconds > 0, seconds < 86_400 else {
            log.warning("QPLAYD_UNWRITABLE_TIMEOUT=\(text) is not a number of seconds; using 30")
            return .seconds(30)
        }
        return .milliseconds(Int(seconds * 1000))
    }

    /// Raises the open-file limit as far as allowed and returns how many clients may be
    /// connected at once: `max_connections`, lowered if the limit leaves too few
    /// descriptors for tracks, databases, audio and scans beside them.
    private static func descriptorBudget(_ configuration: DaemonConfiguration, log: Logger) -> Int {
        let (limit, failure) = DescriptorLimit.raiseSoftLimitToHard()
        if let failure {
            log.warning("could not raise the open-file limit to its hard limit: errno \(failure)")
        }
        let cap = limit.connectionCap(configured: configuration.maxConnections)
        log.info(
            "open-file limit \(limit.soft) (hard \(limit.hard.map(String.init) ?? "unlimited")); up to \(cap) clients")
        if cap < configuration.maxConnections {
            log.notice(
                "max_connections = \(configuration.maxConnections) lowered to \(cap): the open-file limit is \(limit.soft) and \(limit.soft - cap) descriptors are kept for tracks, databases, audio and scans")
        }
        return cap
    }
}
