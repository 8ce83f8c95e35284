import Logging
import NIOCore
import QPlayTestSupport
import Testing

@testable import QPlayDaemon

/// Without a password the MPD listener serves only on loopback, judged on the address
/// it is bound to: `localhost` is a name, and where /etc/hosts or DNS resolve it to a
/// LAN address, trusting the name would serve the LAN without a password.
/// Pooled: the listener runs in the cooperative pool, which the parallel suite's
/// end-to-end tests hold while they wait on daemons.
@Suite("Listener: loopback judged on the bound address", .timeLimit(.minutes(1)), .tags(.pooled), .group(.pooled))
struct LoopbackBindingTests {
    @Test(arguments: ["127.0.0.1", "127.0.0.2", "127.255.1.9", "::1", "::ffff:127.0.0.1"])
    func loopbackAddressesAreLoopback(_ ip: String) throws {
        #expect(LoopbackAddress.contains(try SocketAddress(ipAddress: ip, port: 6600)))
    }

    @Test(arguments: [
        "0.0.0.0", "192.168.1.5", "10.0.0.1", "128.0.0.1", "1.127.0.0", "::", "fe80::1", "::2",
        "::ffff:192.168.1.5", "2001:db8::1",
    ])
    func otherAddressesAreNot(_ ip: String) throws {
        #expect(!LoopbackAddress.contains(try SocketAddress(ipAddress: ip, port: 6600)))
    }

    /// A session set that never gets a connection: the listener must refuse to start.
    struct NoSessions: LineSessions {
        func open(_ id: ConnectionID, channel: any Channel) -> Int { 0 }
        func serve(_ id: ConnectionID, _ connection: Int, frames: ConnectionFrames) async {}
        func closed(_ id: ConnectionID, _ connection: Int, heldFullOutput: Bool) {}
        func silence(_ id: ConnectionID, _ connection: Int) -> ConnectionSilence { .authenticated }
    }

    func listener(_ address: MPDAddress, loopbackOnly: Bool) -> LineListener<NoSessions> {
        LineListener(
            settings: .init(
                addresses: [address], allowedUID: 0, lineLimit: 8191, outputLimit: 1 << 20,
                unwritableTimeout: .seconds(30), maxConnections: 4, greeting: Array("OK\n".utf8),
                refusal: Array("NO\n".utf8), client: "a test client", loopbackOnly: loopbackOnly),
            logger: Logger(label: "test"))
    }

    /// The name check at configuration time lets `localhost` through; the bound address
    /// is what counts. 0.0.0.0 stands for a name that resolved to a non-loopback address.
    @Test func aNonLoopbackBindWithoutPasswordIsRefused() async throws {
        let port = try FreeTCPPort.probe()
        let refusing = listener(.tcp(host: "0.0.0.0", port: port), loopbackOnly: true)
        var failure: ServerError?
        do {
            try await refusing.start(serving: NoSessions())
        } catch {
            failure = error
        }
        await refusing.shutdown()
        let reason = "\(failure.map { "\($0)" } ?? "started")"
        #expect(reason.contains("not a loopback address"), "\(reason)")
        #expect(!refusing.isListening)

        // The port was released, and with a password (no loopback requirement) it binds.
        let open = listener(.tcp(host: "0.0.0.0", port: port), loopbackOnly: false)
        try await open.start(serving: NoSessions())
        #expect(open.isListening)
        await open.shutdown()
    }

    @Test(arguments: ["127.0.0.1", "localhost"])
    func aLoopbackBindWithoutPasswordStarts(_ host: String) async throws {
        let port = try FreeTCPPort.probe()
        let serving = listener(.tcp(host: host, port: port), loopbackOnly: true)
        try await serving.start(serving: NoSessions())
        #expect(serving.isListening)
        await serving.shutdown()
    }
}
