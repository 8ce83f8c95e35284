import Logging
import NIOCore
import Synchronization

/// All connections' unread output together, across every listener of the daemon. Each
/// connection's own is bounded by its write buffer's high-water mark (paused there,
/// closed after `unwritableTimeout`), but 512 clients that never read could still hold
/// 512 × 2 MiB and more; past `limit` in total, the connections holding the most — the
/// slowest readers — are closed, the largest first, until the rest fit. A client that
/// reads its answers holds next to nothing here and is never the one chosen.
public final class OutputBudget: Sendable {
    /// 512 MiB: a bound on what clients that stopped reading can cost, far above what
    /// readers hold at once (the largest answers, a whole library as a search, are tens
    /// of megabytes). The daemon takes `QPLAYD_OUTPUT_BUDGET` (bytes) in its place.
    public static let defaultLimit = 512 << 20

    private struct Account {
        var bytes = 0
        let channel: any Channel
        /// Chosen to be closed; its bytes are still counted until NIO drops them.
        var closing = false
    }

    private struct State {
        var total = 0
        /// Connections with output written and not yet taken by the kernel.
        var accounts: [ObjectIdentifier: Account] = [:]
    }

    public let limit: Int
    private let logger: Logger
    private let state = Mutex(State())

    public init(limit: Int = OutputBudget.defaultLimit, logger: Logger) {
        self.limit = limit
        self.logger = logger
    }

    /// Bytes written to clients and not yet taken by the kernel, in total.
    public var total: Int { state.withLock { $0.total } }

    /// `bytes` were written to `channel`; closes the largest holders if that passes the limit.
    func charge(_ bytes: Int, to channel: any Channel) {
        let limit = self.limit
        let chosen: [(any Channel, Int)] = state.withLock { state in
            state.total += bytes
            state.accounts[ObjectIdentifier(channel), default: Account(channel: channel)].bytes += bytes
            guard state.total > limit else { return [] }
            var kept = state.total - state.accounts.values.reduce(0) { $0 + ($1.closing ? $1.bytes : 0) }
            var chosen: [(any Channel, Int)] = []
            while kept > limit,
                let (key, account) = state.accounts.filter({ !$0.value.closing }).max(by: { $0.value.bytes < $1.value.bytes })
            {
                state.accounts[key]?.closing = true
                kept -= account.bytes
                chosen.append((account.channel, account.bytes))
            }
            return chosen
        }
        for (channel, held) in chosen {
            logger.warning(
                "closing the client with the most unread output: all clients' unread output passed its budget",
                metadata: ["unread_bytes": "\(held)", "budget_bytes": "\(limit)"])
            // Not from inside this write's pipeline call: after it, on the channel's loop.
            channel.eventLoop.execute { channel.close(promise: nil) }
        }
    }

    /// `bytes` written to `channel` were taken by the kernel, or dropped with the channel.
    func refund(_ bytes: Int, from channel: any Channel) {
        state.withLock { state in
            state.total -= bytes
            let key = ObjectIdentifier(channel)
            guard var account = state.accounts[key] else { return }
            account.bytes -= bytes
            state.accounts[key] = account.bytes > 0 ? account : nil
        }
    }
}

/// Charges every write of a connection to the daemon's `OutputBudget` until NIO has
/// written or dropped it. First in the pipeline, so all the connection's output
/// passes it.
final class OutputAccounting: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let budget: OutputBudget

    init(_ budget: OutputBudget) {
        self.budget = budget
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let bytes = unwrapOutboundIn(data).readableBytes
        guard bytes > 0 else {
            context.write(data, promise: promise)
            return
        }
        let channel = context.channel
        let budget = self.budget
        // Charged before the write: a write that fails at once refunds what was charged.
        budget.charge(bytes, to: channel)
        let promise = promise ?? context.eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenComplete { _ in budget.refund(bytes, from: channel) }
        context.write(data, promise: promise)
    }
}
