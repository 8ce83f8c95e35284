import Foundation
import QPlayTestSupport
import Testing

/// The playlist folder's watcher is part of the ordered shutdown (docs/arch/daemon.md):
/// after SIGTERM the core stops it, and waits for its thread to end, before the player
/// saves the state; qplayd then exits 0.
@Suite(.timeLimit(.minutes(1)))
struct PlaylistWatcherShutdownTests {
    @Test func sigtermEndsTheWatcherBeforeTheExit() throws {
        let daemon = try DaemonProcess.started(config: "watch = true\n")
        defer { daemon.directory.remove() }
        #expect(daemon.stop() == 0, "\(daemon.log)")
        let log = daemon.log
        let signal = try #require(log.range(of: "saving state and shutting down"), "\(log)")
        let stopped = try #require(log.range(of: "stopped watching the playlist folder"), "\(log)")
        #expect(signal.upperBound <= stopped.lowerBound, "\(log)")
    }
}
