import Hummingbird
import NIOCore

/// Hummingbird's request context with the client's address (for the sign-in's limit on
/// failed tries) and its channel (closed under a stream listener that fell behind).
struct WebContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }
}
