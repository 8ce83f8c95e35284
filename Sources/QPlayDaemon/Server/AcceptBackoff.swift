#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore

/// What the listener does when `accept` fails. Out of descriptors (EMFILE, ENFILE) or
/// memory, the waiting connection stays in the backlog and the socket stays readable:
/// retrying at once would spin the event loop at full CPU without ever succeeding. So
/// accepting pauses for `pause`, then resumes; the kernel's backlog holds the callers
/// meanwhile. Other failures (a caller that gave up, ECONNABORTED) are retried at once.
enum AcceptBackoff {
    static let pause = TimeAmount.milliseconds(100)

    /// A handler for the listening channel's pipeline (NIO's `ServerBootstrap` adds one
    /// only to its async `bind`).
    static func handler(logger: Logger) -> AcceptBackoffHandler {
        let report = Report(logger: logger)
        return AcceptBackoffHandler(shouldForwardIOErrorCaught: false) { error in
            guard [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode) else { return nil }
            report.paused(error)
            return pause
        }
    }

    /// Logs the first pause and then at most one line a minute, not ten a second.
    private final class Report {
        private let logger: Logger
        private var lastLogged: NIODeadline?
        private var pausesSinceLog = 0

        init(logger: Logger) {
            self.logger = logger
        }

        func paused(_ error: IOError) {
            pausesSinceLog += 1
            let now = NIODeadline.now()
            if let lastLogged, now - lastLogged < .minutes(1) { return }
            logger.error(
                "cannot accept connections: \(String(cString: strerror(error.errnoCode))); pausing accept for 100 ms",
                metadata: ["pauses": "\(pausesSinceLog)"])
            lastLogged = now
            pausesSinceLog = 0
        }
    }
}
