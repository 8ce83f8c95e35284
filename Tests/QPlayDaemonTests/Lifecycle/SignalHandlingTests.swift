import QPlayTestSupport
import SystemPackage
import Testing

@testable import QPlayDaemon

#if canImport(Glibc)
import Glibc
#endif

@Suite struct SignalHandlingTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalRunsTheShutdownCallbackAndTheProcessEndsNormally(_ signal: Int32) throws {
        let dir = TemporaryDirectory("qplay-signal")
        defer { dir.remove() }
        let ready = dir.appending("ready")
        let output = dir.appending("output")
        let child = try ChildProcess(
            role: "signal-waiter",
            environment: ["QPLAY_TEST_READY": ready.string, "QPLAY_TEST_OUTPUT": output.string],
            logPath: dir.appending("child.log"))
        try child.waitUntil("the handlers") { fileExists(ready) }
        child.send(signal)
        let exit = child.waitForExit()
        #expect(!exit.bySignal && exit.status == 0, "\(child.log)")
        #expect(try TemporaryDirectory.read(output) == Array("\(signal)\n".utf8))
    }

    @Test func aSecondSignalDuringAHungShutdownForcesTheExit() throws {
        let dir = TemporaryDirectory("qplay-signal")
        defer { dir.remove() }
        let ready = dir.appending("ready")
        let output = dir.appending("output")
        let child = try ChildProcess(
            role: "signal-waiter",
            environment: [
                "QPLAY_TEST_READY": ready.string, "QPLAY_TEST_OUTPUT": output.string, "QPLAY_TEST_HANG": "1",
            ],
            logPath: dir.appending("child.log"))
        try child.waitUntil("the handlers") { fileExists(ready) }
        child.send(SIGINT)
        try child.waitUntil("the shutdown to begin") { fileExists(output) }
        child.send(SIGINT)
        let exit = child.waitForExit()
        #expect(!exit.bySignal && exit.status == 1)
    }

    @Test func theCallbackRunsOnceForRepeatedSignals() async throws {
        let (calls, continuation) = AsyncStream<Int32>.makeStream()
        // SIGUSR2: nothing else in the test run uses it.
        let handling = SignalHandling(signals: [SIGUSR2], repeatedSignalExits: false) { number in
            continuation.yield(number)
        }
        kill(getpid(), SIGUSR2)
        var iterator = calls.makeAsyncIterator()
        #expect(await iterator.next() == SIGUSR2)
        // One signal at a time: pending signals of one kind merge into one.
        kill(getpid(), SIGUSR2)
        try waitFor("the second signal") { handling.receivedCount == 2 }
        // A wrong second callback would be a task started by now; give it room to run.
        try await Task.sleep(for: .milliseconds(100))
        handling.cancel()
        continuation.finish()
        #expect(await iterator.next() == nil)
    }
}
