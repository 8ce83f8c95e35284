#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore

/// Pauses accepting for `pause` when `accept` fails for want of descriptors (EMFILE,
/// ENFILE) or memory (ENOBUFS, ENOMEM), then resumes.
///
/// Such a failure leaves the caller in the backlog and the listening socket readable, so
/// retrying at once spins the event loop at full CPU without ever succeeding (measured:
/// 81,000 `accept4` calls failing with EMFILE in 5 s). NIO's own `AcceptBackoffHandler`
/// does not stop that: it only delays the next `read`, while the listener stays
/// registered for readability (its read stays pending after a failed `accept`). Turning
/// `autoRead` off takes the listener out of epoll; turning it back on re-arms it.
final class AcceptBackoff: ChannelInboundHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    static let pause = TimeAmount.milliseconds(100)

    private let logger: Logger
    private var paused = false
    private var lastLogged: NIODeadline?
    private var pausesSinceLog = 0

    init(logger: Logger) {
        self.logger = logger
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let failure = error as? IOError, [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(failure.errnoCode) else {
            context.fireErrorCaught(error)
            return
        }
        report(failure)
        guard !paused, let options = context.channel.syncOptions else { return }
        guard (try? options.setOption(ChannelOptions.autoRead, value: false)) != nil else { return }
        paused = true
        let channel = context.channel
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: Self.pause) {
            handler.value.paused = false
            // Fails harmlessly once the listener is closed.
            channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
        }
    }

    /// Logs the first pause and then at most one line a minute, not ten a second.
    private func report(_ failure: IOError) {
        pausesSinceLog += 1
        let now = NIODeadline.now()
        if let lastLogged, now - lastLogged < .minutes(1) { return }
        logger.error(
            "cannot accept connections: \(String(cString: strerror(failure.errnoCode))); pausing accept for 100 ms",
            metadata: ["pauses": "\(pausesSinceLog)"])
        lastLogged = now
        pausesSinceLog = 0
    }
}
