import Logging
import NIOCore
import NIOPosix

extension ServerBootstrap {
    /// What every listener of qplayd's shares (its own protocol's and MPD's): a deep
    /// backlog, nothing accepted until the caller reads (after the socket file's mode
    /// is set and every address is bound), accept errors backed off, and each client's
    /// unread output bounded by `outputLimit` (paused at it, resumed at half).
    static func qplayListener(
        group: MultiThreadedEventLoopGroup, logger: Logger, outputLimit: Int,
        admit: @escaping @Sendable (any Channel) -> EventLoopFuture<Void>
    ) -> ServerBootstrap {
        ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.autoRead, value: false)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptBackoff(logger: logger))
                }
            }
            // A client that shuts its write side after its requests still reads the
            // answers (`ConnectionHandler`).
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelOption(
                ChannelOptions.writeBufferWaterMark, value: .init(low: outputLimit / 2, high: outputLimit))
            .childChannelInitializer(admit)
    }
}
