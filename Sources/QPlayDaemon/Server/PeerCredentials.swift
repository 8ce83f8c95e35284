#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore

/// `struct ucred` from <sys/socket.h>: Glibc hides it behind `_GNU_SOURCE`, so it is
/// declared here with the same layout for `getsockopt(SO_PEERCRED)`.
struct PeerCredentials: Sendable, Equatable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

extension PeerCredentials {
    struct OtherUser: Error {}

    /// Succeeds when the peer of a Unix-socket channel is the user `uid`; a peer of
    /// another user is logged (as `client`) and fails the future, closing it.
    static func requireUser(
        _ uid: UInt32, of channel: any Channel, logger: Logger, client: String
    ) -> EventLoopFuture<Void> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(ChannelError.operationUnsupported)
        }
        let credentials: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return credentials.flatMapThrowing { peer in
            guard peer.uid == uid else {
                logger.warning("refused \(client) of another user", metadata: ["uid": "\(peer.uid)", "pid": "\(peer.pid)"])
                throw OtherUser()
            }
        }
    }
}
