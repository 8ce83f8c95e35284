import QPlayTestSupport
import Testing

/// A WebSocket upgrade asked for in any way NIO's upgrader takes — `websocket` among
/// several protocols, or in a second `Upgrade` field — meets the same rules as a plain
/// `Upgrade: websocket` (the `web-head` fuzz target found both passing the gate).
@Suite(.serialized)
struct WebUpgradeGateTests {
    static let key = [("Connection", "Upgrade"), ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13")]

    @Test func everyUpgradeNeedsTheSignIn() throws {
        let port = try FreeTCPPort.probe()
        let origin = ("Origin", "http://127.0.0.1:\(port)")
        try withDaemon(config: #"http_password = "correct horse""# + "\n", arguments: ["--http", "127.0.0.1:\(port)"]) { _ in
            let listed = try WebServerClient(port: port).request("GET", "/ws", headers: [("Upgrade", "h2c, websocket"), origin] + Self.key)
            #expect(listed.status == 401)
            let second = try WebServerClient(port: port).request(
                "GET", "/ws", headers: [("Upgrade", "h2c"), ("Upgrade", "WebSocket"), origin] + Self.key)
            #expect(second.status == 401)
            #expect(try WebServerClient(port: port).upgrade(origin: origin.1).status == 401)
        }
    }

    @Test func everyUpgradeNeedsTheSameOrigin() throws {
        let port = try FreeTCPPort.probe()
        try withDaemon(arguments: ["--http", "127.0.0.1:\(port)"]) { _ in
            let foreign = ("Origin", "http://attacker.example")
            let listed = try WebServerClient(port: port).request("GET", "/ws", headers: [("Upgrade", "websocket, h2c"), foreign] + Self.key)
            #expect(listed.status == 403)
            let second = try WebServerClient(port: port).request(
                "GET", "/ws", headers: [("Upgrade", "h2c"), ("Upgrade", "websocket"), foreign] + Self.key)
            #expect(second.status == 403)
            let same = try WebServerClient(port: port).request(
                "GET", "/ws", headers: [("Upgrade", "h2c, websocket"), ("Origin", "http://127.0.0.1:\(port)")] + Self.key)
            #expect(same.status == 101)
        }
    }
}
