import Foundation
import GRDB
import QPlayEngine
import QPlayLibrary
import QPlayModel
import QPlayTestSupport
import SystemPackage
import Testing

@testable import QPlayDaemon

#if canImport(Glibc)
import Glibc
#endif

@Suite struct StateStoreTests {
    let state = ChildProcessRoles.writtenState

    @Test func anEmptyDatabaseHasNoState() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let store = try StateStore(path: dir.appending("state.sqlite"))
        #expect(try store.load() == nil)
        // A position alone means nothing without a queue.
        store.savePosition(entry: 3, seconds: 1)
        try store.flush()
        #expect(try store.load() == nil)
    }

    /// Two openers of one new file at once (two processes, or a test beside the daemon)
    /// race through the schema migrations; whichever loses a step must look again and
    /// open the winner's schema, never fail on "table already exists".
    @Test func openersRacingOnANewFileAllOpenIt() async throws {
        for round in 0..<30 {
            let dir = TemporaryDirectory("qplay-state")
            defer { dir.remove() }
            let path = dir.appending("state.sqlite")
            let failures = await withTaskGroup(of: String?.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        do {
                            let store = try StateStore(path: path)
                            return try store.integrityCheck() == ["ok"] ? nil : "integrity"
                        } catch { return "\(error)" }
                    }
                }
                var failures: [String] = []
                for await failure in group { if let failure { failures.append(failure) } }
                return failures
            }
            #expect(failures.isEmpty, "round \(round)")
        }
    }

    @Test func stateAndPositionSurviveReopening() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        do {
            let store = try StateStore(path: path)
            try store.save(state)
            store.savePosition(entry: 12, seconds: 42.25)
            try store.close()
        }
        let reopened = try StateStore(path: path)
        #expect(try reopened.load() == SavedPlayerState(state: state, position: SavedPosition(entry: 12, seconds: 42.25)))
        #expect(Self.mode(path) == 0o600)
    }

    /// Each save writes the rows its change touched, not the queue: a move, a removal or
    /// an append in a long queue costs a handful of rows, and what is read back is always
    /// the last state saved.
    @Test func editsOfALongQueueWriteFewRows() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        let store = try StateStore(path: path)
        var ids = (1...20_000).map(Int64.init)
        #expect(try store.save(testEngineState(ids, current: 1)) == 20_001)

        var collection = testEngineState(ids, current: 1)
        func edit(_ change: (inout [QueueEntry]) -> Void) throws -> Int {
            change(&collection.collection)
            ids = collection.collection.map(\.id)
            return try store.save(collection)
        }
        #expect(try edit { $0.insert($0.remove(at: 0), at: 19_999) } == 1)  // first to last
        #expect(try edit { $0.insert($0.remove(at: 10_000), at: 5) } == 1)
        #expect(try edit { _ = $0.remove(at: 777) } == 1)  // still installed: key cleared
        let extra = QueueEntry(id: 30_000, track: Track(id: 1, path: FilePath("x.mp3"), title: "x"))
        #expect(try edit { $0.append(extra) } == 1)
        #expect(try edit { $0.insert(extra, at: 0); $0.removeLast() } == 1)
        // Many inserts at one place exhaust the room between two keys; a stretch around
        // it then gets new keys and the list stays right.
        for n in 0..<80 {
            let entry = QueueEntry(id: 40_000 + Int64(n), track: Track(id: 1, path: FilePath("y.mp3"), title: "y"))
            _ = try edit { $0.insert(entry, at: 2) }
        }
        let reopened = try StateStore(path: path)
        let loaded = try #require(try reopened.load())
        #expect(loaded.state.collection.map(\.id) == ids)
        #expect(loaded.state.installed.map(\.id) == (1...20_000).map(Int64.init))
        #expect(loaded.state.current?.id == 1)
    }

    /// Entries that leave every list (and are not playing) leave the table.
    @Test func removedEntriesAreDeleted() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        let store = try StateStore(path: path)
        try store.save(testEngineState([1, 2, 3, 4], current: 2))
        try store.save(testEngineState([2, 4], current: 2))
        try store.save(testEngineState([4, 5], current: nil))
        let database = try DatabaseQueue(path: path.string)
        #expect(try database.read { try Int64.fetchAll($0, sql: "SELECT id FROM queue_entry ORDER BY id") } == [4, 5])
        #expect(try store.load()?.state == testEngineState([4, 5], current: nil))
    }

    /// Removals go by runs of consecutive ids (`IDRuns`): runs broken by entries that
    /// stay, a run at each end and single ids all leave exactly their rows, whether the
    /// entries leave the table or only the queue (still installed: their key cleared).
    @Test func runsOfRemovedEntriesLeaveExactlyTheirRows() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        let store = try StateStore(path: path)
        let all = (1...1_000).map(Int64.init)
        try store.save(testEngineState(all, current: 1))
        let gone: (Int64) -> Bool = { id in
            (2...9).contains(id) || ((10...500).contains(id) && id != 250) || id == 600 || (990...1_000).contains(id)
        }
        // Out of the queue, still installed: keys cleared, rows kept.
        var queueOnly = testEngineState(all, current: 1)
        queueOnly.collection.removeAll { gone($0.id) }
        try store.save(queueOnly)
        var loaded = try #require(try StateStore(path: path).load())
        #expect(loaded.state.collection.map(\.id) == all.filter { !gone($0) })
        #expect(loaded.state.installed.map(\.id) == all)
        // Out of every list: rows deleted.
        let kept = all.filter { !gone($0) }
        try store.save(testEngineState(kept, current: 1))
        let database = try DatabaseQueue(path: path.string)
        #expect(try database.read { try Int64.fetchAll($0, sql: "SELECT id FROM queue_entry ORDER BY id") } == kept)
        loaded = try #require(try store.load())
        #expect(loaded.state == testEngineState(kept, current: 1))
    }

    @Test func aStateSavedWithItsPositionReplacesADeferredPosition() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let store = try StateStore(path: dir.appending("state.sqlite"), positionInterval: .seconds(3600))
        try store.save(state)
        store.savePosition(entry: 12, seconds: 100)  // written now (leading edge)
        store.savePosition(entry: 12, seconds: 101)  // deferred for an hour
        let changed = testEngineState([11, 12, 13], current: 13)
        try store.save(changed, position: SavedPosition(entry: 13, seconds: 0))  // a track change
        try store.flush()
        #expect(try store.load() == SavedPlayerState(state: changed, position: SavedPosition(entry: 13, seconds: 0)))
    }

    @Test func aDeferredPositionIsWrittenWithoutFlush() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        let store = try StateStore(path: path, positionInterval: .milliseconds(200))
        try store.save(state)
        store.savePosition(entry: 12, seconds: 1)
        store.savePosition(entry: 12, seconds: 2)
        store.savePosition(entry: 12, seconds: 3)
        // Read through a second connection, as after a crash; only the timer can write 3.
        let reader = try StateStore(path: path)
        try waitFor("the deferred position") { try reader.load()?.position?.seconds == 3 }
        withExtendedLifetime(store) {}
    }

    @Test func anImmediatePositionSkipsTheDebounce() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        let store = try StateStore(path: path, positionInterval: .seconds(3600))
        try store.save(state)
        store.savePosition(entry: 12, seconds: 5)
        store.savePosition(entry: 12, seconds: 6, immediately: true)  // e.g. pause
        let reader = try StateStore(path: path)
        try waitFor("the immediate position") { try reader.load()?.position?.seconds == 6 }
        withExtendedLifetime(store) {}
    }

    /// A state of the first format (one JSON document in `player_state`) is carried over
    /// into rows on the first load.
    @Test func aStateOfTheFirstFormatIsCarriedOver() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        var engine = PlayerEngine(configuration: EngineConfiguration(shuffleSeed: 3))
        let tracks = (1...3).map { Track(id: $0, path: FilePath("a/\($0).mp3"), title: "T\($0)", duration: 60) }
        _ = try engine.add(tracks, now: .zero, position: 0)
        _ = engine.setVolume(40, now: .zero, position: 0)
        let legacy = engine.persistentState(position: 0)
        try Self.writeFirstFormat(legacy, version: 1, to: path)

        let store = try StateStore(path: path)
        #expect(store.movedAside == nil)
        let loaded = try #require(try store.load())
        #expect(loaded.state.collection.map(\.id) == [1, 2, 3])
        #expect(loaded.state.settings.volume == 40)
        #expect(PlayerEngine(restoring: loaded.state).queue == engine.queue)
        let database = try DatabaseQueue(path: path.string)
        #expect(try database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM player_state") } == 0)
    }

    @Test func singleConsumeAndTheQueueVersionSurviveReopening() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        var saved = testEngineState([1, 2], current: 1)
        saved.settings.single = true
        saved.settings.consume = true
        saved.settings.queueVersion = UInt64(Int64.max) + 7  // the full unsigned range
        do {
            let store = try StateStore(path: path)
            try store.save(saved)
            try store.close()
        }
        let loaded = try #require(try StateStore(path: path).load())
        #expect(loaded.state.settings.single)
        #expect(loaded.state.settings.consume)
        #expect(loaded.state.settings.queueVersion == UInt64(Int64.max) + 7)
    }

    /// A database written before single, consume and the queue version existed loads
    /// with both modes off and version 0, its queue and settings intact.
    @Test func aDatabaseFromBeforeTheModesLoads() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        let database = try DatabaseQueue(path: path.string)
        try StateDatabase.migrator.migrate(database, upTo: "v2")
        try database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO player_settings
                        (id, format, current, modified, volume, repeat_mode, shuffle, next_entry_id, random_state, saved_at)
                    VALUES (1, 1, NULL, 0, 35, 'one', 0, 9, 77, 0)
                    """)
        }
        try database.close()

        let store = try StateStore(path: path)
        #expect(store.movedAside == nil)
        let loaded = try #require(try store.load())
        #expect(loaded.state.settings.volume == 35)
        #expect(loaded.state.settings.repeatMode == .one)
        #expect(loaded.state.settings.single == false)
        #expect(loaded.state.settings.consume == false)
        #expect(loaded.state.settings.queueVersion == 0)
    }

    /// A file of a newer qplayd (an unknown schema migration, or a first-format state of
    /// a higher version) is renamed and kept, never written over.
    @Test func aStateOfANewerFormatIsKeptAside() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        try Self.writeFirstFormat(PlayerEngine().persistentState(position: 0), version: 7, to: path)
        let store = try StateStore(path: path)
        let aside = try #require(store.movedAside)
        #expect(aside.path.string.hasPrefix(path.string + ".newer-"))
        // Kept as it was: the newer state is still in it, and no table of ours was added.
        let kept = try DatabaseQueue(path: aside.path.string)
        #expect(try kept.read { try Int.fetchOne($0, sql: "SELECT version FROM player_state") } == 7)
        #expect(try kept.read { try $0.tableExists("queue_entry") } == false)
        try kept.close()
        #expect(try store.load() == nil)
        try store.save(state)
        try store.close()

        let future = try DatabaseQueue(path: path.string)
        try future.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
        }
        try future.close()
        let again = try StateStore(path: path)
        #expect(again.movedAside?.reason.contains("v99-from-the-future") == true)
        #expect(try again.load() == nil)
    }

    @Test func aCorruptFileIsMovedAsideAndReplaced() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        let garbage = pseudoRandomBytes(count: 8192, seed: 5)
        try dir.write(garbage, to: path)
        let store = try StateStore(path: path)
        let aside = try #require(store.movedAside?.path)
        #expect(aside.string.hasPrefix(path.string + ".corrupt-"))
        #expect(try TemporaryDirectory.read(aside) == garbage)
        #expect(try store.load() == nil)
        try store.save(state)
        #expect(try store.load()?.state == state)
    }

    static func writeFirstFormat(_ state: EnginePersistentState, version: Int, to path: FilePath) throws {
        let database = try DatabaseQueue(path: path.string)
        try database.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('v1');
                    CREATE TABLE player_state (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL,
                        payload BLOB NOT NULL, saved_at REAL NOT NULL);
                    CREATE TABLE playback_position (id INTEGER PRIMARY KEY CHECK (id = 1), entry INTEGER,
                        seconds REAL NOT NULL, saved_at REAL NOT NULL);
                    """)
            try db.execute(
                sql: "INSERT INTO player_state VALUES (1, ?, ?, 0)",
                arguments: [version, try JSONEncoder().encode(state)])
        }
        try database.close()
    }

    static func mode(_ path: FilePath) -> mode_t {
        var info = stat()
        return stat(path.string, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    /// kill -9 of a process that saved and never flushed: everything it saved is there.
    @Test func stateSurvivesKillNine() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        let ready = dir.appending("ready")
        let child = try ChildProcess(
            role: "state-writer",
            environment: ["QPLAY_TEST_DB": path.string, "QPLAY_TEST_READY": ready.string],
            logPath: dir.appending("child.log"))
        try child.waitUntil("the child to save") { fileExists(ready) }
        let observer = try StateStore(path: path)
        // 13.5 was deferred by the debounce: it lands through the child's timer, not a flush.
        try child.waitUntil("the deferred position") { try observer.load()?.position?.seconds == 13.5 }
        child.send(SIGKILL)
        let exit = child.waitForExit()
        #expect(exit.bySignal && exit.status == SIGKILL)

        let reopened = try StateStore(path: path)
        #expect(
            try reopened.load()
                == SavedPlayerState(state: ChildProcessRoles.writtenState, position: SavedPosition(entry: 12, seconds: 13.5)))
    }

    /// kill -9 in the middle of a stream of writes: the database opens, passes SQLite's
    /// integrity check, and holds one complete state with its matching position.
    @Test func killNineDuringWritesLeavesAConsistentDatabase() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        let child = try ChildProcess(
            role: "state-hammer", environment: ["QPLAY_TEST_DB": path.string], logPath: dir.appending("child.log"))
        // The child makes the file; opening it beside the child's writes is the point.
        var opened: StateStore?
        try child.waitUntil("the database") {
            opened = fileExists(path) ? try? StateStore(path: path) : nil
            return opened != nil
        }
        let observer = try #require(opened)
        try child.waitUntil("200 saves") { (try observer.load()?.state.collection.count ?? 0) >= 203 }
        child.send(SIGKILL)
        #expect(child.waitForExit().bySignal)

        let reopened = try StateStore(path: path)
        #expect(try reopened.integrityCheck() == ["ok"])
        let loaded = try #require(try reopened.load())
        let ids = loaded.state.collection.map(\.id)
        #expect(ids.count >= 203)
        // Every saved state was whole: entries 11...13 then one per save.
        #expect(ids == [11, 12, 13] + (101...(100 + Int64(ids.count - 3))).map { $0 })
        #expect(loaded.state.current?.id == 12)
    }
}

/// Polls until `condition` holds; the deadline only keeps a broken store from hanging
/// the run (not a timing assertion).
func waitFor(_ what: String, deadline: Duration = .seconds(60), _ condition: () throws -> Bool) throws {
    let clock = ContinuousClock()
    let end = clock.now + deadline
    while try !condition() {
        guard clock.now < end else { throw ChildFailure(reason: "gave up waiting for \(what)") }
        usleep(10_000)
    }
}
