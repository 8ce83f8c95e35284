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
/// refuses with its status (the upgrade code downstream only knows 400). Then it passes
/// everything through. Later requests on a kept-alive connection are bounded by the
/// HTTP decoder's header limit and Hummingbird's idle timeout (`WebFrontend`).
final class WebGate: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    static let headLimit = 16 * 1024

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
        let bytes = buffer.readableBytesView
        guard let end = Self.endOfHead(bytes) else {
            if bytes.count > Self.headLimit {
                refuse(context, WebRawResponse(status: "431 Request Header Fields Too Large", body: "request line and headers over 16 KiB\n"))
            }
            return
        }
        if end - bytes.startIndex > Self.headLimit {
            refuse(context, WebRawResponse(status: "431 Request Header Fields Too Large", body: "request line and headers over 16 KiB\n"))
            return
        }
        let fields = WebRawHead(bytes[bytes.startIndex..<end])
        if let refusal = upgradeRefusal(fields) {
            refuse(context, refusal)
            return
        }
        passing = true
        deadline?.cancel()
        deadline = nil
        head = nil
        context.fireChannelRead(wrapInboundOut(buffer))
    }

    /// A WebSocket upgrade the rules refuse, with its answer.
    private func upgradeRefusal(_ head: WebRawHead) -> WebRawResponse? {
        guard head.field("upgrade")?.lowercased() == "websocket" else { return nil }
        switch shared.policy.checkChange(host: head.field("host"), origin: head.field("origin"), fetchSite: head.field("sec-fetch-site")) {
        case .misdirected: return WebRawResponse(status: "421 Misdirected Request", body: "unknown host\n")
        case .forbidden: return WebRawResponse(status: "403 Forbidden", body: "cross-origin request refused\n")
        case .allowed: break
        }
        if let signIn = shared.signIn, !signIn.isSignedIn(cookieHeader: head.field("cookie")) {
            return WebRawResponse(status: "401 Unauthorized", body: "sign in first\n")
        }
        return nil
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

    /// The index just past the blank line ending the head, if it has arrived.
    static func endOfHead(_ bytes: ByteBufferView) -> ByteBufferView.Index? {
        var index = bytes.startIndex
        let last = bytes.endIndex
        while index + 3 < last {
            if bytes[index] == 0x0D && bytes[index + 1] == 0x0A && bytes[index + 2] == 0x0D && bytes[index + 3] == 0x0A {
                return index + 4
            }
            index += 1
        }
        return nil
    }
}
