import Foundation
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
        let store = try StateStore<TestPlayerState>(path: dir.appending("state.sqlite"))
        #expect(try store.load() == nil)
        // A position alone means nothing without a queue.
        store.savePosition(entry: 3, seconds: 1)
        try store.flush()
        #expect(try store.load() == nil)
    }

    @Test func stateAndPositionSurviveReopening() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        do {
            let store = try StateStore<TestPlayerState>(path: path)
            store.save(state)
            store.savePosition(entry: 12, seconds: 42.25)
            try store.close()
        }
        let reopened = try StateStore<TestPlayerState>(path: path)
        #expect(try reopened.load() == SavedPlayerState(state: state, position: SavedPosition(entry: 12, seconds: 42.25)))
    }

    @Test func theNewestOfManySavesWins() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let store = try StateStore<TestPlayerState>(path: dir.appending("state.sqlite"))
        var last = state
        for counter in 1...500 {
            last.counter = counter
            last.entries.append(Int64(counter))
            store.save(last)
            store.savePosition(entry: Int64(counter), seconds: Double(counter))
        }
        try store.flush()
        let loaded = try #require(try store.load())
        #expect(loaded.state == last)
        // The last position was deferred by the debounce; flush wrote it.
        #expect(loaded.position == SavedPosition(entry: 500, seconds: 500))
    }

    @Test func aStateSavedWithItsPositionReplacesADeferredPosition() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let store = try StateStore<TestPlayerState>(path: dir.appending("state.sqlite"), positionInterval: .seconds(3600))
        store.save(state)
        store.savePosition(entry: 12, seconds: 100)  // written now (leading edge)
        store.savePosition(entry: 12, seconds: 101)  // deferred for an hour
        var changed = state
        changed.current = 13
        store.save(changed, position: SavedPosition(entry: 13, seconds: 0))  // a track change
        try store.flush()
        #expect(try store.load() == SavedPlayerState(state: changed, position: SavedPosition(entry: 13, seconds: 0)))
    }

    @Test func aDeferredPositionIsWrittenWithoutFlush() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        let store = try StateStore<TestPlayerState>(path: path, positionInterval: .milliseconds(200))
        store.save(state)
        store.savePosition(entry: 12, seconds: 1)
        store.savePosition(entry: 12, seconds: 2)
        store.savePosition(entry: 12, seconds: 3)
        // Read through a second connection, as after a crash; only the timer can write 3.
        let reader = try StateStore<TestPlayerState>(path: path)
        try waitFor("the deferred position") { try reader.load()?.position?.seconds == 3 }
        withExtendedLifetime(store) {}
    }

    @Test func anImmediatePositionSkipsTheDebounce() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        let store = try StateStore<TestPlayerState>(path: path, positionInterval: .seconds(3600))
        store.save(state)
        store.savePosition(entry: 12, seconds: 5)
        store.savePosition(entry: 12, seconds: 6, immediately: true)  // e.g. pause
        let reader = try StateStore<TestPlayerState>(path: path)
        try waitFor("the immediate position") { try reader.load()?.position?.seconds == 6 }
        withExtendedLifetime(store) {}
    }

    @Test func aStateOfAnotherVersionOrShapeIsReportedNotMisread() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        do {
            let store = try StateStore<TestPlayerState>(path: path, stateVersion: 1)
            store.save(state)
            try store.close()
        }
        #expect(throws: StateStoreError.incompatibleState(saved: 1, expected: 2)) {
            try StateStore<TestPlayerState>(path: path, stateVersion: 2).load()
        }
        struct OtherShape: Codable, Sendable { var queue: [String] }
        let error = try #require(throws: StateStoreError.self) {
            try StateStore<OtherShape>(path: path, stateVersion: 1).load()
        }
        guard case .undecodableState = error else {
            Issue.record("expected undecodableState, got \(error)")
            return
        }
    }

    @Test func aCorruptFileIsMovedAsideAndReplaced() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        let garbage = pseudoRandomBytes(count: 8192, seed: 5)
        try dir.write(garbage, to: path)
        let store = try StateStore<TestPlayerState>(path: path)
        #expect(store.movedAsideCorruptFile == dir.appending("state.sqlite.corrupt"))
        #expect(try TemporaryDirectory.read(dir.appending("state.sqlite.corrupt")) == garbage)
        #expect(try store.load() == nil)
        store.save(state)
        try store.flush()
        #expect(try store.load()?.state == state)
    }

    @Test func aWriteFailureIsReportedAndThrownByFlush() throws {
        let dir = TemporaryDirectory("qplay-state")
        defer { dir.remove() }
        struct Unencodable: Codable, Sendable {
            var value: Double
        }
        let reported = ReportedErrors()
        let store = try StateStore<Unencodable>(path: dir.appending("state.sqlite")) { reported.append($0) }
        store.save(Unencodable(value: .nan))  // JSON has no NaN
        #expect(throws: StateStoreError.self) { try store.flush() }
        #expect(reported.count == 1)
        // The error is reported once; the store goes on working.
        store.save(Unencodable(value: 1))
        try store.flush()
        #expect(try store.load()?.state.value == 1)
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
        let observer = try StateStore<TestPlayerState>(path: path)
        // 13.5 was deferred by the debounce: it lands through the child's timer, not a flush.
        try child.waitUntil("the deferred position") { try observer.load()?.position?.seconds == 13.5 }
        child.send(SIGKILL)
        let exit = child.waitForExit()
        #expect(exit.bySignal && exit.status == SIGKILL)

        let reopened = try StateStore<TestPlayerState>(path: path)
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
        // Opening migrates the schema; wait until the child has made it, or both would
        // try to create the same tables.
        var opened: StateStore<TestPlayerState>?
        try child.waitUntil("the database") {
            opened = fileExists(path) ? try? StateStore<TestPlayerState>(path: path) : nil
            return opened != nil
        }
        let observer = try #require(opened)
        try child.waitUntil("200 saves") { (try observer.load()?.state.counter ?? 0) >= 200 }
        child.send(SIGKILL)
        #expect(child.waitForExit().bySignal)

        let reopened = try StateStore<TestPlayerState>(path: path)
        #expect(try reopened.integrityCheck() == ["ok"])
        let loaded = try #require(try reopened.load())
        #expect(loaded.state.counter >= 200)
        // Every saved state was whole: entries 11...13 then one per counter step.
        #expect(loaded.state.entries == [11, 12, 13] + (2...loaded.state.counter).map(Int64.init))
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

final class ReportedErrors: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [StateStoreError] = []

    func append(_ error: StateStoreError) {
        lock.withLock { errors.append(error) }
    }

    var count: Int { lock.withLock { errors.count } }
}
