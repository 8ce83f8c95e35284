import Foundation
import QPlayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The web remote's rules against a real qplayd: Host names (421), same-origin changes
/// (403), the start refused for an exposed address without a password, and the sign-in
/// (cookie, 401 and redirects without it, 429 after five wrong passwords a minute).
@Suite(.serialized)
struct WebSecurityTests {
    @Test func aForeignHostIsMisdirected() throws {
        let port = try FreeTCPPort.probe()
        try withDaemon(config: #"http_hosts = ["remote.example"]"# + "\n", arguments: ["--http", "127.0.0.1:\(port)"]) { _ in
            let foreign = try WebServerClient(port: port).request("GET", "/", headers: [("Host", "attacker.example:\(port)")])
            #expect(foreign.status == 421)
            let page = try WebServerClient(port: port).request("GET", "/")
            #expect(foreign.headers["content-security-policy"] == (try WebPagePolicy.expected(forPage: page.text)))
            WebStatusCase.expectAll(
                [
                    .request("localhost", "GET", "/", headers: [("Host", "localhost:\(port)")], status: 200),
                    .request("a name in http_hosts", "GET", "/", headers: [("Host", "remote.example")], status: 200),
                    .upgrade("the upgrade to a foreign host", origin: "http://attacker.example", host: "attacker.example", status: 421),
                ], port: port)
        }
    }

    @Test func theUpgradeNeedsTheSameOrigin() throws {
        let port = try FreeTCPPort.probe()
        try withDaemon(arguments: ["--http", "127.0.0.1:\(port)"]) { _ in
            WebStatusCase.expectAll(
                [
                    .upgrade("a foreign origin", origin: "http://attacker.example", status: 403),
                    .upgrade("another port", origin: "http://127.0.0.1:\(port + 1)", status: 403),
                    .upgrade("no origin", origin: nil, status: 403),
                    .upgrade("origin null", origin: "null", status: 403),
                    .upgrade("origin null from the same site", origin: "null", extra: [("Sec-Fetch-Site", "same-origin")], status: 101),
                    .upgrade("the same origin", origin: "http://127.0.0.1:\(port)", status: 101),
                    .request(
                        "a sign-in from a foreign origin", "POST", "/login", headers: [("Origin", "http://attacker.example")],
                        body: "password=x", status: 403),
                ], port: port)
        }
    }

    @Test func anExposedAddressWithoutAPasswordStopsTheStart() throws {
        try expectStartRefused(http: "0.0.0.0:\(try FreeTCPPort.probe())", saying: "http_password")
    }

    @Test func aConfiguredAddressInUseStopsTheStart() throws {
        let (holder, port) = try #require(holdLoopbackPort(0))
        defer { close(holder) }
        try expectStartRefused(http: "127.0.0.1:\(port)", saying: "127.0.0.1:\(port)")
    }

    /// qplayd started with `--http address` ends at once with a configuration error
    /// (78) that names `words`.
    private func expectStartRefused(
        http address: String, saying words: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let daemon = DaemonProcess()
        defer { daemon.directory.remove() }
        let result = try runProcess(
            BuiltProducts.url("qplayd"), daemon.standardArguments + ["--http", address],
            environment: daemon.environment, killAfter: 60)
        #expect(result.status == 78, sourceLocation: sourceLocation)
        #expect(result.stderr.contains(words), "\(result.stderr)", sourceLocation: sourceLocation)
    }

    @Test func signInSetsASessionAndFailedTriesAreLimited() throws {
        let port = try FreeTCPPort.probe()
        let origin = ("Origin", "http://127.0.0.1:\(port)")
        try withDaemon(config: #"http_password = "correct horse""# + "\n", arguments: ["--http", "127.0.0.1:\(port)"]) { _ in
            let page = try WebServerClient(port: port).request("GET", "/")
            #expect(page.status == 303 && page.headers["location"] == "/login")
            let login = try WebServerClient(port: port).request("GET", "/login")
            #expect(login.status == 200 && login.text.contains("password"))
            WebStatusCase.expectAll(
                [
                    .request("a cover before signing in", "GET", "/art/1", status: 401),
                    .upgrade("the upgrade before signing in", origin: origin.1, status: 401),
                ], port: port)

            let signedIn = try WebServerClient(port: port).request(
                "POST", "/login", headers: [origin, ("Content-Type", "application/x-www-form-urlencoded")],
                body: "password=correct+horse")
            #expect(signedIn.status == 303 && signedIn.headers["location"] == "/")
            let cookie = try #require(signedIn.headers["set-cookie"])
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
            let session = ("Cookie", String(cookie.prefix { $0 != ";" }))
            let web = try WebServerClient(port: port)
            #expect(try web.upgrade(origin: origin.1, extra: [session]).status == 101)
            #expect(try web.readObject()["protocol"] as? String == "qplay/1")
            WebStatusCase.expectAll(
                [
                    .request("the page signed in", "GET", "/", headers: [session], status: 200),
                    .request("a forged session", "GET", "/", headers: [("Cookie", "qplay_session=forged")], status: 303),
                ], port: port)

            for _ in 0..<5 {
                let wrong = try WebServerClient(port: port).request("POST", "/login", headers: [origin], body: "password=guess")
                #expect(wrong.status == 303 && wrong.headers["set-cookie"] == nil)
            }
            let limited = try WebServerClient(port: port).request("POST", "/login", headers: [origin], body: "password=correct+horse")
            #expect(limited.status == 429)
        }
    }
}

/// The built-in address in use (as another qplayd's page holds it) is no reason to stop.
@Suite(.serialized)
struct WebServerDefaultAddressTests {
    @Test func theDefaultAddressInUseIsLoggedAndTheDaemonRunsOn() throws {
        // Taken by someone else already (another qplayd): that holder could let it go
        // at any moment, so the check needs the port held here.
        guard let (holder, _) = holdLoopbackPort(6680) else { return }
        defer { close(holder) }
        try withDaemon { daemon in
            #expect(daemon.log.contains("web remote not served"))
            // Still serving a while later: the web frontend's end did not end the daemon.
            Thread.sleep(forTimeInterval: 2)
            #expect(daemon.isRunning)
            let pong = try daemon.client().request("ping")
            #expect(pong["ok"] as? Bool == true)
        }
    }
}

/// A socket listening on 127.0.0.1:`port` (0: a port the kernel picks) and the port it
/// holds, so a server started there finds it in use; nil when it is taken. The caller
/// closes the socket.
private func holdLoopbackPort(_ port: Int) -> (socket: Int32, port: Int)? {
    let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard holder >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = in_addr_t(UInt32(0x7f00_0001).bigEndian)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let held = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(holder, $0, length) == 0 && listen(holder, 1) == 0 && getsockname(holder, $0, &length) == 0
        }
    }
    guard held else {
        close(holder)
        return nil
    }
    return (holder, Int(UInt16(bigEndian: address.sin_port)))
}
