import QPlayEngine
import QPlayLibrary
import QPlayModel
import QPlayProtocol
import SystemPackage

/// Answers protocol requests: library questions straight from the index, player
/// commands through the PlayerService, scans through the LibraryService. The socket
/// server answers `subscribe` itself.
struct CommandDispatcher: RequestHandler {
    let player: PlayerService
    let library: LibraryService
    let startedAt: ContinuousClock.Instant
    let alarms: AlarmService
    /// nil where no level meter runs (tests of the dispatcher alone).
    var meter: LevelMeterService? = nil
    /// nil where no state database is open (tests of the dispatcher alone).
    var bookmarks: BookmarkService? = nil
    /// nil where no state database is open (tests of the dispatcher alone).
    var statistics: PlayStatistics? = nil
    /// nil where no playlist folder is set up (tests of the dispatcher alone).
    var playlists: PlaylistStore? = nil
    let memory = IdleMemoryRelease()

    func handle(_ request: Request, connection: ConnectionID) async -> Response {
        do {
            return try await respond(to: request.command, connection: connection)
        } catch let error as EngineError {
            return .failure(ProtocolError(error))
        } catch let error as ProtocolError {
            return .failure(error)
        } catch let error as LibraryScanError {
            if case .subpathNotFound = error { return .failure(.notFound(error.description)) }
            if error.isDuplicatePath { return .failure(.badRequest(error.description)) }
            return .failure(.unavailable(error.description))
        } catch where DatabaseFiles.isStorageFailure(error) {
            // The disk, not the daemon: full, read-only or failing.
            return .failure(
                .unavailable("cannot write the library index \(library.index.databasePath): \(DatabaseFiles.reason(error))"))
        } catch {
            return .failure(.internalError("\(error)"))
        }
    }

    private func respond(to command: Command, connection: ConnectionID) async throws -> Response {
        let index = library.index
        switch command {
        case .ping, .subscribe:
            return .empty
        case .status:
            meter?.asked()
            return .success(QPlayProtocol.Status(await player.snapshot()))
        case .stats:
            let stats = try index.statistics()
            return .success(
                Stats(
                    tracks: stats.tracks, artists: stats.artists, albums: stats.albums,
                    lastScan: stats.lastScan.map(ScanTotals.init), uptime: seconds(since: startedAt)))
        case .search(let predicates, let limit):
            let query = Query(predicates)
            let tracks = try index.search(query, limit: limit)
            memory.queryAnswered()
            return .success(SearchResult(tracks: tracks.map(QPlayProtocol.Track.init)))
        case .add(let source):
            let tracks = try await StreamEntries.tracks(for: source) ?? resolve(source)
            let (added, started) = try await player.perform { engine, now, position throws(EngineError) in
                let result = try engine.add(tracks, now: now, position: position)
                return ((result.added, result.started), result.output)
            }
            return .success(AddResult(added: added, started: started))
        case .queue(let window):
            let queue: QueueSnapshot
            switch window {
            case .all: queue = await player.queueSnapshot()
            case .range(let start, let count): queue = await player.queueSnapshot(from: start, count: count)
            case .around(let radius): queue = await player.queueSnapshot(around: radius)
            }
            return .success(QPlayProtocol.Queue(queue))
        case .remove(let reference):
            try await player.perform { engine, now, position throws(EngineError) in
                switch reference {
                case .entry(let id): try engine.remove(entry: id, now: now, position: position)
                case .index(let index): try engine.remove(index: index, now: now, position: position)
                }
            }
            return .empty
        case .jump(let reference):
            try await player.perform { engine, now, position throws(EngineError) in
                switch reference {
                case .entry(let id): try engine.jump(entry: id, now: now, position: position)
                case .index(let index): try engine.jump(index: index, now: now, position: position)
                }
            }
            return .success(QPlayProtocol.Status(await player.snapshot()))
        case .move(let from, let to):
            try await player.perform { engine, now, position throws(EngineError) in
                try engine.move(from: from, to: to, now: now, position: position)
            }
            return .empty
        case .clear:
            try await player.perform { engine, now, position in engine.clear(now: now, position: position) }
            return .empty
        case .play, .pause, .toggle, .stop, .next, .previous:
            try await player.perform { engine, now, position in
                switch command {
                case .play: engine.play(now: now, position: position)
                case .pause: engine.pause(now: now, position: position)
                case .toggle: engine.toggle(now: now, position: position)
                case .stop: engine.stop(now: now, position: position)
                case .next: engine.next(now: now, position: position)
                default: engine.previous(now: now, position: position)
                }
            }
            return .success(QPlayProtocol.Status(await player.snapshot()))
        case .press(let button):
            await player.press(QPlayModel.Button(button))
            return .empty
        case .release(let button):
            let (action, held) = try await player.release(QPlayModel.Button(button))
            return .success(ReleaseResult(action: QPlayProtocol.ButtonAction(action), heldMilliseconds: held))
        case .seek(let target):
            try await player.refuseSeekOnStream()
            try await player.perform { engine, now, position throws(EngineError) in
                switch target {
                case .position(let seconds): try engine.seek(to: seconds, now: now, position: position)
                case .delta(let seconds): try engine.seek(by: seconds, now: now, position: position)
                }
            }
            return .success(QPlayProtocol.Status(await player.snapshot()))
        case .chapter(let target):
            let request: ChapterRequest =
                switch target {
                case .index(let index): .index(index)
                case .step(let step): .step(step)
                }
            try await player.seek(to: request)
            return .success(QPlayProtocol.Status(await player.snapshot()))
        case .volume(let change):
            try await player.perform { engine, now, position in
                switch change {
                case .set(let level): engine.setVolume(level, now: now, position: position)
                case .delta(let delta): engine.changeVolume(by: delta, now: now, position: position)
                }
            }
            return .success(QPlayProtocol.Status(await player.snapshot()))
        case .mode(let repeatMode, let shuffle):
            try await player.perform { engine, now, position in
                var output = EngineOutput()
                if let repeatMode {
                    output.append(engine.setRepeat(QPlayModel.RepeatMode(repeatMode), now: now, position: position))
                }
                if let shuffle {
                    output.append(engine.setShuffle(shuffle, now: now, position: position))
                }
                return output
            }
            return .success(QPlayProtocol.Status(await player.snapshot()))
        case .update(let path, let wait):
            let subpath = try path.map(relativePath)
            if let subpath { try library.checkScanTarget(subpath) }
            let scan = await library.startScan(subpath: subpath)
            guard wait else { return .success(UpdateStarted()) }
            return .success(ScanTotals(try await scan.value))

        // Sleep timer and alarm clock.
        case .sleep(let request):
            try await player.perform { engine, now, position throws(EngineError) in
                switch request {
                case .after(let seconds): try engine.setSleep(after: seconds, now: now, position: position)
                case .endOfTrack: engine.setSleepAtTrackEnd(now: now, position: position)
                case .cancel: engine.cancelSleep(now: now, position: position)
                }
            }
            return .success(QPlayProtocol.Status(await player.snapshot()))
        case .alarmAdd(let request):
            return .success(AlarmAdded(alarm: try await alarms.add(request)))
        case .alarmList:
            return .success(AlarmList(alarms: await alarms.list()))
        case .alarmRemove(let id):
            try await alarms.remove(id)
            return .empty

        // Bookmarks
        case .bookmarkAdd(let name):
            return .success(BookmarkAdded(bookmark: try await bookmarkService().add(name: name)))
        case .bookmarkList(let track, let start, let count):
            return .success(try bookmarkService().list(track: track, start: start, count: count))
        case .bookmarkJump(let id):
            try await bookmarkService().jump(id)
            return .success(QPlayProtocol.Status(await player.snapshot()))
        case .bookmarkRemove(let id):
            try bookmarkService().remove(id)
            return .empty
        case .art(let track, let offset):
            return .success(try await art(track: track, offset: offset))
        case .rate(let track, let stars):
            guard let statistics else { throw ProtocolError.unavailable("ratings need the state database") }
            try await statistics.rate(track: track, stars: stars, player: player)
            return .empty
        case .playlist(let request):
            guard let playlists else { throw ProtocolError.unavailable("stored playlists need their folder") }
            return try await PlaylistRequests(store: playlists, player: player, index: index)
                .respond(to: request, tracks: resolve)
        }
    }

    private func bookmarkService() throws(ProtocolError) -> BookmarkService {
        guard let bookmarks else { throw .unavailable("bookmarks need the state database") }
        return bookmarks
    }

    /// The tracks an `add` names; an empty result is `no_match`, an unknown id or path
    /// `not_found`, and nothing is added then.
    private func resolve(_ source: AddSource) throws -> [QPlayModel.Track] {
        let index = library.index
        switch source {
        case .query(let predicates):
            let tracks = try index.search(Query(predicates))
            memory.queryAnswered()
            guard !tracks.isEmpty else { throw ProtocolError.noMatch("no track matches \(describe(predicates))") }
            return Array(tracks)
        case .ids(let ids):
            let tracks = try index.tracks(ids: ids)
            let found = Set(tracks.map(\.id))
            if let missing = ids.first(where: { !found.contains($0) }) {
                throw ProtocolError.notFound("no track with id \(missing)")
            }
            return tracks
        case .paths(let paths):
            // FilePath drops a trailing `/` or `/.`, which would make `track.mp3/` the file.
            if let folder = paths.first(where: { $0.hasSuffix("/") || $0.hasSuffix("/.") }) {
                throw ProtocolError.badRequest("\(folder) is not a file: a path that ends in / names a folder")
            }
            let relative = try paths.map(relativePath)
            let exact = try index.tracks(paths: relative)
            return try zip(relative, exact).map { path, track in try track ?? trackShown(as: path) }
        case .urls(let urls):
            return urls.map(QPlayModel.Track.stream)
        }
    }

    /// The one track whose path, as the wire shows it (bytes that are not UTF-8 become
    /// U+FFFD), is `path`: how a client names a file whose name is not UTF-8.
    private func trackShown(as path: FilePath) throws -> QPlayModel.Track {
        let shown = path.string
        let matches = try library.index.tracks(displayedPath: shown)
        guard let only = matches.first else { throw ProtocolError.notFound("no track at \(shown) in the library") }
        guard matches.count == 1 else {
            throw ProtocolError.badRequest(
                "path \(shown) is ambiguous: \(matches.count) tracks show as it (names that are not UTF-8); add them by id")
        }
        return only
    }

    /// A path as the library stores it: relative to the music directory. Absolute paths
    /// inside the music directory are accepted too, as a shell completes them.
    private func relativePath(_ text: String) throws(ProtocolError) -> FilePath {
        var path = FilePath(text).lexicallyNormalized()
        if path.isAbsolute {
            let root = library.musicDirectory.lexicallyNormalized()
            guard path.starts(with: root) else {
                throw .badRequest("\(text) is not inside the music directory \(root)")
            }
            path = FilePath(root: nil, path.components.dropFirst(root.components.count))
        }
        guard !path.components.contains(where: { $0.kind == .parentDirectory }) else {
            throw .badRequest("\(text) leaves the music directory")
        }
        return path
    }

    private func describe(_ predicates: [QPlayProtocol.Predicate]) -> String {
        predicates.map { "\($0.property.rawValue) \($0.comparison.rawValue) \"\($0.value)\"" }
            .joined(separator: " and ")
    }

    private func seconds(since instant: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - instant
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
}
