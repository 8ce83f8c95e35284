import NIOCore
import Synchronization

/// The web remote's connections open now, over all its addresses.
final class WebConnectionCount: Sendable {
    let count = Mutex(0)
}

/// The first handler of every web connection, before any HTTP parsing: it holds the
/// connection cap (`max_connections`, counted over the web remote's addresses; one more
/// gets 503 and is closed), reads the first request's line and headers whole before
/// anything else sees them — at most 16 KiB (431 past it) within `headTimeout` (a
/// client that trickles its headers is closed, so slow clients cannot keep the places
/// under the cap) — and turns away a WebSocket upgrade that `WebPolicy` or the sign-in
/// refuses with its status (the upgrade code downstream only knows 400), as
/// `WebHeadCheck` decides. Then it passes everything through. Later requests on a
/// kept-alive connection are bounded by the HTTP decoder's header limit and
/// Hummingbird's idle timeout (`WebFrontend`).
final class WebGate: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    static let headLimit = WebHeadCheck.headLimit

    struct Shared: Sendable {
        let policy: WebPolicy
        let signIn: WebSignIn?
        let maxConnections: Int
        let open: WebConnectionCount
        let headTimeout: TimeAmount
    }

    private let shared: Shared
    private var head: ByteBuffer?
    private var passing = false
    private var counted = false
    private var deadline: Scheduled<Void>?
    /// Answered and closing: nothing more is read.
    private var refused = false

    init(_ shared: Shared) {
        self.shared = shared
    }

    func channelActive(context: ChannelHandlerContext) {
        let cap = shared.maxConnections
        counted = shared.open.count.withLock { open in
            guard open < cap else { return false }
            open += 1
            return true
        }
        guard counted else {
            refuse(context, WebRawResponse(status: "503 Service Unavailable", body: "too many connections (max_connections = \(cap)); try again later\n"))
            return
        }
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: shared.headTimeout) {
            if !handler.value.passing && !handler.value.refused { channel.close(promise: nil) }
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        if counted {
            counted = false
            shared.open.count.withLock { $0 -= 1 }
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if passing {
            context.fireChannelRead(data)
            return
        }
        guard counted, !refused else { return }
        var incoming = unwrapInboundIn(data)
        if head == nil {
            head = incoming
        } else {
            head!.writeBuffer(&incoming)
        }
        guard let buffer = head else { return }
        switch WebHeadCheck(policy: shared.policy, signIn: shared.signIn).verdict(buffer.readableBytesView) {
        case .incomplete:
            return
        case .refused(let response):
            refuse(context, response)
        case .passed:
            passing = true
            deadline?.cancel()
            deadline = nil
            head = nil
            context.fireChannelRead(wrapInboundOut(buffer))
        }
    }

    private func refuse(_ context: ChannelHandlerContext, _ response: WebRawResponse) {
        refused = true
        head = nil
        deadline?.cancel()
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(bytes: response.bytes)))
            .whenComplete { _ in channel.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.fireErrorCaught(error)
    }
}
