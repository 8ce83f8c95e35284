import Hummingbird
import NIOCore

/// Hummingbird's request context with the client's address (for the sign-in's limit on
/// failed tries).
struct WebContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
