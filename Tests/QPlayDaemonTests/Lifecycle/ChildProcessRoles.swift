import Foundation
import QPlayEngine
import QPlayLibrary
import QPlayModel
import SystemPackage
import Testing

@testable import QPlayDaemon

#if canImport(Glibc)
import Glibc
#endif

/// A player state for the persistence tests: `ids` as the queue (installed and played
/// in that order), `current` playing, and `volume`.
func testEngineState(_ ids: [Int64], current: Int64?, volume: Int = 70) -> PersistedEngineState {
    let entries = ids.map { id in
        QueueEntry(id: id, track: Track(id: id, path: FilePath("Artist/Song \(id).mp3"), title: "Song \(id)", duration: 60))
    }
    return PersistedEngineState(
        collection: entries, installed: entries, playOrder: ids,
        current: entries.first { $0.id == current },
        settings: PersistedEngineSettings(
            current: current, modified: false, volume: volume, repeatMode: .all, shuffle: false,
            nextEntryID: (ids.max() ?? 0) + 1, randomState: 42))
}

/// What the child processes of other tests do (see `ChildProcess`). Disabled unless the
/// role variable names them, so an ordinary test run only lists them as skipped.
@Suite struct ChildProcessRoles {
    static var role: String? { ProcessInfo.processInfo.environment[ChildProcess.roleVariable] }
    static func variable(_ name: String) -> String { ProcessInfo.processInfo.environment[name] ?? "" }

    static let writtenState = testEngineState([11, 12, 13], current: 12)

    /// Saves a state and two positions (the second one deferred by the debounce), says
    /// "ready", then waits to be killed without ever flushing.
    @Test(.enabled(if: role == "state-writer"))
    func stateWriter() async throws {
        let store = try StateStore(path: FilePath(Self.variable("QPLAY_TEST_DB")))
        try store.save(Self.writtenState)
        store.savePosition(entry: 12, seconds: 12.5)
        store.savePosition(entry: 12, seconds: 13.5)
        try Data().write(to: URL(fileURLWithPath: Self.variable("QPLAY_TEST_READY")))
        try await Task.sleep(for: .seconds(3600))
    }

    /// Saves as fast as it can until killed: a kill -9 lands in the middle of writes.
    @Test(.enabled(if: role == "state-hammer"))
    func stateHammer() async throws {
        let store = try StateStore(
            path: FilePath(Self.variable("QPLAY_TEST_DB")), positionInterval: .milliseconds(10))
        var ids: [Int64] = [11, 12, 13]
        var counter: Int64 = 100
        while true {
            counter += 1
            ids.append(counter)
            try store.save(testEngineState(ids, current: 12, volume: Int(counter % 100)))
            store.savePosition(entry: counter, seconds: Double(counter))
            try await Task.sleep(for: .microseconds(200))
        }
    }

    /// Holds the single-instance lock and a listening socket until killed.
    @Test(.enabled(if: role == "lock-holder"))
    func lockHolder() async throws {
        let socket = FilePath(Self.variable("QPLAY_TEST_SOCKET"))
        let lock = try SingleInstanceLock.acquire(socketPath: socket)
        _ = try bindUnixSocket(at: socket)
        try Data().write(to: URL(fileURLWithPath: Self.variable("QPLAY_TEST_READY")))
        try await Task.sleep(for: .seconds(3600))
        withExtendedLifetime(lock) {}
    }

    /// Waits for SIGTERM or SIGINT through `SignalHandling`, writes the signal number,
    /// and ends normally — unless QPLAY_TEST_HANG is set, when the shutdown never ends
    /// (so a second signal has to force the exit).
    @Test(.enabled(if: role == "signal-waiter"))
    func signalWaiter() async throws {
        let output = URL(fileURLWithPath: Self.variable("QPLAY_TEST_OUTPUT"))
        let hang = !Self.variable("QPLAY_TEST_HANG").isEmpty
        let (signals, continuation) = AsyncStream<Int32>.makeStream()
        let handling = SignalHandling { number in
            try? Data("\(number)\n".utf8).write(to: output)
            if hang {
                try? await Task.sleep(for: .seconds(3600))
            }
            continuation.yield(number)
        }
        try Data().write(to: URL(fileURLWithPath: Self.variable("QPLAY_TEST_READY")))
        var iterator = signals.makeAsyncIterator()
        let received = await iterator.next()
        withExtendedLifetime(handling) {}
        #expect(received == SIGTERM || received == SIGINT)
    }
}
