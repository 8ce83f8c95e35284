import Foundation
import QPlayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// SIGHUP (a closing terminal, a reload habit), SIGUSR1 and SIGUSR2 killed qplayd by
/// their default action (exit 129, 138), without saving its state and with its socket
/// left behind. They are ignored (docs/RUNNING.md): the daemon keeps answering, and the
/// SIGTERM after them still takes the shutdown path and exits 0.
@Suite("Signals qplayd ignores", .serialized, .timeLimit(.minutes(2)))
struct IgnoredSignalsTests {
    @Test func hangupAndUserSignalsLeaveTheDaemonServing() throws {
        try withDaemon(waitForLibrary: false) { daemon in
            let client = try daemon.client()
            #expect(try client.request("ping")["ok"] as? Bool == true)
            for signal in [SIGHUP, SIGUSR1, SIGUSR2, SIGHUP] {
                #expect(kill(daemon.pid, signal) == 0)
                // A few pings: the signal's default action, were it in force, would end
                // the process while they run.
                for _ in 0..<5 {
                    let answer = try client.request("ping")
                    #expect(answer["ok"] as? Bool == true, "after signal \(signal): \(answer)\n\(daemon.log)")
                    usleep(20_000)
                }
                #expect(daemon.isRunning, "signal \(signal) ended qplayd:\n\(daemon.log)")
            }
            // A new connection is served too.
            #expect(try daemon.client().request("ping")["ok"] as? Bool == true)
            let status = daemon.stop()
            #expect(status == 0, "exit status \(status):\n\(daemon.log)")
            #expect(access(daemon.socketPath, F_OK) != 0, "the socket was left behind")
        }
    }
}
