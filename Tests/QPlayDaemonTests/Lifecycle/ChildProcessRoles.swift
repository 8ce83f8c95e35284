import Foundation
import SystemPackage
import Testing

@testable import QPlayDaemon

#if canImport(Glibc)
import Glibc
#endif

/// The player state the persistence tests save: shaped like the engine's (entries,
/// current entry, options) plus a counter.
struct TestPlayerState: Codable, Sendable, Equatable {
    var entries: [Int64]
    var current: Int64?
    var volume: Int
    var repeatMode: String
    var counter: Int
}

/// What the child processes of other tests do (see `ChildProcess`). Disabled unless the
/// role variable names them, so an ordinary test run only lists them as skipped.
@Suite struct ChildProcessRoles {
    static var role: String? { ProcessInfo.processInfo.environment[ChildProcess.roleVariable] }
    static func variable(_ name: String) -> String { ProcessInfo.processInfo.environment[name] ?? "" }

    static let writtenState = TestPlayerState(
        entries: [11, 12, 13], current: 12, volume: 70, repeatMode: "all", counter: 1)

    /// Saves a state and two positions (the second one deferred by the debounce), says
    /// "ready", then waits to be killed without ever flushing.
    @Test(.enabled(if: role == "state-writer"))
    func stateWriter() async throws {
        let store = try StateStore<TestPlayerState>(path: FilePath(Self.variable("QPLAY_TEST_DB")))
        store.save(Self.writtenState)
        store.savePosition(entry: 12, seconds: 12.5)
        store.savePosition(entry: 12, seconds: 13.5)
        try Data().write(to: URL(fileURLWithPath: Self.variable("QPLAY_TEST_READY")))
        try await Task.sleep(for: .seconds(3600))
    }

    /// Saves as fast as it can until killed: a kill -9 lands in the middle of writes.
    @Test(.enabled(if: role == "state-hammer"))
    func stateHammer() async throws {
        let store = try StateStore<TestPlayerState>(
            path: FilePath(Self.variable("QPLAY_TEST_DB")), positionInterval: .milliseconds(10))
        var state = Self.writtenState
        while true {
            state.counter += 1
            state.entries.append(Int64(state.counter))
            store.save(state)
            store.savePosition(entry: Int64(state.counter), seconds: Double(state.counter))
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
