import NIOCore
import NIOEmbedded
import NIOHTTP1
@testable import QPlayDaemon
import QPlayFuzzSupport

/// The web remote's reading of client bytes before Hummingbird's: the gate's decision on
/// a first request (`WebHeadCheck`, `WebRawHead`), the `Host`/`Origin` rules
/// (`WebPolicy`), the sign-in form (`WebForm`), the session cookie (`WebSignIn`) and the
/// `/art/<id>` path (`WebArt.trackID`). The first byte picks which; each is checked
/// against what it must hold, not only for crashes. The head is also read by NIO's own
/// HTTP decoder, the one that decides the WebSocket upgrade: whatever it would upgrade,
/// the gate must have let through only when the rules allow it on the values NIO reads.
@main
enum WebHeadFuzz {
    static func main() { FuzzDriver.run(check) }

    static let password = "correct horse"
    static let signIn = WebSignIn(password: password)
    /// A session this daemon handed out; cookies in the inputs may carry it.
    static let token: String = {
        guard case .signedIn(let token) = signIn.attempt(password, from: "fuzz") else { fatalError("no session") }
        return token
    }()
    static let policies = [
        WebPolicy(listen: [.tcp(host: "127.0.0.1", port: 6680)], extraHosts: [], needsSession: false),
        WebPolicy(
            listen: [.tcp(host: "192.168.1.5", port: 6680), .tcp(host: "0.0.0.0", port: 6681)],
            extraHosts: ["Remote.Example.", "[fd00::1]"], needsSession: true),
    ]

    static func check(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        switch input.choose(5) {
        case 0, 1: checkHead(&input)
        case 2: checkPolicy(&input)
        case 3: checkForm(&input)
        default:
            checkCookie(&input)
            checkArtPath(Array(input.rest()))
        }
    }

    // MARK: The first request's head

    static func checkHead(_ input: inout FuzzInput) {
        let flags = input.byte()
        let policy = policies[Int(flags & 1)]
        let gate = WebHeadCheck(policy: policy, signIn: flags & 2 != 0 ? signIn : nil)
        let split = Int(input.byte())
        var head = Array(input.rest())
        // A session cookie of ours where the input asks for one ("@@" as the value).
        head = replacing(Array("@@".utf8), with: Array(token.utf8), in: head)
        let verdict = gate.verdict(head)
        let end = WebHeadCheck.endOfHead(head)
        switch verdict {
        case .incomplete:
            fuzzCheck(end == nil && head.count <= WebHeadCheck.headLimit, "incomplete, yet \(head.count) bytes, end \(String(describing: end))")
        case .refused(let response):
            let tooLarge = end.map { $0 > WebHeadCheck.headLimit } ?? (head.count > WebHeadCheck.headLimit)
            fuzzCheck(response.status.hasPrefix("431") == tooLarge, "\(response.status) for a head ending at \(String(describing: end)) of \(head.count) bytes")
            fuzzCheck(["431", "421", "403", "401"].contains(String(response.status.prefix(3))), "refused with \(response.status)")
            fuzzCheck(response.bytes.count < 1024 && response.bytes.suffix(response.body.utf8.count).elementsEqual(response.body.utf8), "a malformed refusal")
        case .passed(let length):
            fuzzCheck(length == end && length <= WebHeadCheck.headLimit, "passed a head of \(length) bytes (limit \(WebHeadCheck.headLimit))")
            fuzzCheck(head[length - 4..<length].elementsEqual([0x0D, 0x0A, 0x0D, 0x0A]), "passed a head not ending in a blank line")
            checkAgainstNIO(Array(head[..<length]), gate: gate)
        }
        // The gate sees the bytes as they arrive: a decision on a prefix is the decision
        // on everything after it.
        let prefix = head.count == 0 ? 0 : split % (head.count + 1)
        switch (gate.verdict(head[..<prefix]), verdict) {
        case (.incomplete, _): break
        case (.passed(let a), .passed(let b)): fuzzCheck(a == b, "a prefix passed at \(a), the whole at \(b)")
        case (.refused(let a), .refused(let b)): fuzzCheck(a.status == b.status, "a prefix refused with \(a.status), the whole with \(b.status)")
        default: fuzzCheck(false, "a prefix of \(prefix) bytes decided otherwise than the whole")
        }
    }

    /// The head through NIO's HTTP decoder, as the server reads it after the gate.
    static func checkAgainstNIO(_ head: [UInt8], gate: WebHeadCheck) {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes)))
        defer { _ = try? channel.finish() }
        guard (try? channel.writeInbound(ByteBuffer(bytes: head))) != nil,
            case .head(let request)? = try? channel.readInbound(as: HTTPServerRequestPart.self)
        else { return }
        let fields = WebRawHead(head)
        // Up to blanks around the value: NIO keeps a trailing blank after some bytes that
        // are not UTF-8; the rules on a value with a blank refuse it anyway.
        for name in ["host", "origin", "upgrade", "cookie", "sec-fetch-site"] {
            let ours = fields.field(name).map(trimmed)
            let nio = request.headers[name].first.map(trimmed)
            fuzzCheck(ours == nio, "the gate reads \(name) as \(String(describing: ours)), NIO as \(String(describing: nio))")
        }
        // NIO's upgrader takes any of the Upgrade tokens it has an upgrader for.
        let upgrades = request.headers[canonicalForm: "upgrade"].contains { $0.lowercased() == "websocket" }
        guard upgrades else { return }
        let refusal = gate.upgradeRefusal(
            host: request.headers["host"].first, origin: request.headers["origin"].first,
            fetchSite: request.headers["sec-fetch-site"].first, cookie: request.headers["cookie"].first)
        fuzzCheck(refusal == nil, "passed a WebSocket upgrade the rules refuse (\(refusal?.status ?? "")) on NIO's reading")
    }

    // MARK: Host and Origin

    static func checkPolicy(_ input: inout FuzzInput) {
        let policy = policies[input.choose(2)]
        let parts = text(input.rest()).split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        let host = parts[0]
        let origin = parts.count > 1 ? parts[1] : nil
        let fetchSite = parts.count > 2 ? parts[2] : nil

        let name = WebPolicy.name(ofHost: host)
        fuzzCheck(name == name.lowercased(), "\(host) named \(name), not lowercased")
        fuzzCheck(WebPolicy.isLoopback(name) == isLoopbackModel(name), "isLoopback(\(name)) is \(WebPolicy.isLoopback(name))")
        let hostVerdict = policy.checkHost(host)
        fuzzCheck((hostVerdict == .allowed) == (!host.isEmpty && (isLoopbackModel(name) || policy.hosts.contains(name))), "\(host): \(hostVerdict)")
        let change = policy.checkChange(host: host, origin: origin, fetchSite: fetchSite)
        if change == .allowed {
            fuzzCheck(hostVerdict == .allowed, "a change allowed for the refused host \(host)")
            let sameOrigin = origin.map { origin in
                let lowered = origin.lowercased()
                return lowered == "http://" + host.lowercased() || lowered == "https://" + host.lowercased()
            } ?? false
            let form = origin == "null" && fetchSite?.lowercased() == "same-origin"
            fuzzCheck(sameOrigin || form, "allowed origin \(String(describing: origin)) for host \(host)")
        }
        if hostVerdict != .allowed {
            fuzzCheck(change == .misdirected, "a change from the refused host \(host): \(change)")
        }
    }

    /// Loopback by the bytes: localhost and its subdomains (RFC 6761), ::1, and 127.a.b.c in
    /// decimal (one to three digits a part, each under 256).
    static func isLoopbackModel(_ name: String) -> Bool {
        if name == "localhost" || name.utf8.elementsEqual("::1".utf8) { return true }
        // ".localhost" itself too: no browser sends it, and it names no other site.
        if name.utf8.suffix(10).elementsEqual(".localhost".utf8) { return true }
        let parts = Array(name.utf8).split(separator: 0x2E, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].elementsEqual("127".utf8) else { return false }
        return parts.allSatisfy { part in
            (1...3).contains(part.count) && part.allSatisfy { (0x30...0x39).contains($0) }
                && part.reduce(0) { $0 * 10 + Int($1 - 0x30) } < 256
        }
    }

    // MARK: The sign-in form

    /// Fields drawn from the input, written as a browser encodes a form, must read back:
    /// the first field of a name gives its value.
    static func checkForm(_ input: inout FuzzInput) {
        var fields: [(String, String)] = []
        let count = 1 + input.choose(4)
        for _ in 0..<count {
            let name = text(input.take(input.choose(8)))
            let value = text(input.take(input.choose(40)))
            fields.append((name, value))
        }
        let plusForSpace = input.byte() & 1 == 1
        let body = fields.map { encode($0.0, plusForSpace) + "=" + encode($0.1, plusForSpace) }.joined(separator: "&")
        for (name, _) in fields {
            let expected = fields.first { $0.0 == name }!.1
            let read = WebForm.value(of: name, in: body)
            fuzzCheck(read == expected, "\(name) in \(body): read \(String(describing: read)), written \(expected)")
        }
        // The raw rest as a posted body: any answer, no crash; a value read is valid text.
        _ = WebForm.value(of: "password", in: text(input.rest()))
    }

    static func encode(_ text: String, _ plusForSpace: Bool) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "*"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case 0x20 where plusForSpace:
                out += "+"
            default:
                let hex = String(byte, radix: 16, uppercase: byte & 1 == 0)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }

    // MARK: The session cookie

    /// Signed in exactly when one of the `;`-separated pairs, less its leading blanks, is
    /// `qplay_session=` and the session's token.
    static func checkCookie(_ input: inout FuzzInput) {
        let length = input.choose(200)
        var header = Array(input.take(length))
        header = replacing(Array("@@".utf8), with: Array(token.utf8), in: header)
        let cookie = text(header[...])
        let expected = cookie.split(separator: ";").contains { pair in
            pair.drop(while: { $0 == " " }) == "\(WebSignIn.cookieName)=\(token)"
        }
        fuzzCheck(signIn.isSignedIn(cookieHeader: cookie) == expected, "isSignedIn(\(cookie)) is not \(expected)")
        let forged = (token.first == "0" ? "1" : "0") + token.dropFirst()
        fuzzCheck(!signIn.isSignedIn(cookieHeader: cookie.replacingAll(token, forged)), "a forged token signs in")
    }

    // MARK: /art/<id>

    static func checkArtPath(_ bytes: [UInt8]) {
        let path = text(bytes[...])
        let id = WebArt.trackID(path)
        let digits = !path.utf8.isEmpty && path.utf8.count <= 18 && path.utf8.allSatisfy { (0x30...0x39).contains($0) }
        fuzzCheck((id != nil) == digits, "trackID(\(path)) is \(String(describing: id))")
        if let id {
            let trimmed = path.drop { $0 == "0" }
            fuzzCheck(id >= 0 && String(id) == (trimmed.isEmpty ? "0" : String(trimmed)), "trackID(\(path)) is \(id)")
        }
    }

    // MARK: Helpers

    static func trimmed(_ text: String) -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(text.drop(while: blank).reversed().drop(while: blank).reversed())
    }

    static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    static func replacing(_ marker: [UInt8], with replacement: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if index + marker.count <= bytes.count && bytes[index..<index + marker.count].elementsEqual(marker) {
                out += replacement
                index += marker.count
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }
}

extension String {
    fileprivate func replacingAll(_ target: String, _ replacement: String) -> String {
        String(decoding: WebHeadFuzz.replacing(Array(target.utf8), with: Array(replacement.utf8), in: Array(utf8)), as: UTF8.self)
    }
}
