import NIOCore
import QPlayProtocol

/// The NIO side of one client connection, on its event loop: sends the greeting, cuts
/// the incoming bytes into lines (64 KiB limit) and hands them, in order, to the
/// connection's request loop; tells the server when the client goes away.
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let id: ConnectionID
    private let greeting: [UInt8]
    private var framer: LineFramer
    private let frames: AsyncStream<LineFramer.Frame>.Continuation
    private let onClose: @Sendable () -> Void

    init(
        id: ConnectionID, greeting: [UInt8], lineLimit: Int,
        frames: AsyncStream<LineFramer.Frame>.Continuation, onClose: @escaping @Sendable () -> Void
    ) {
        self.id = id
        self.greeting = greeting
        self.framer = LineFramer(limit: lineLimit)
        self.frames = frames
        self.onClose = onClose
    }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: greeting)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        framer.append(buffer.readableBytesView)
        while let frame = framer.next() {
            frames.yield(frame)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        frames.finish()
        onClose()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A reset by the peer and the like: the connection is over, nothing else is.
        context.close(promise: nil)
    }
}
