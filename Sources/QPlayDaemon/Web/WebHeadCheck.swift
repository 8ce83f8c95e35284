/// What `WebGate` does with the bytes of a connection's first request read so far: wait
/// for more, answer and close, or let the connection through. Apart from the channel
/// handler, so the `web-head` fuzz target drives exactly the gate's decisions.
struct WebHeadCheck: Sendable {
    /// The request line and headers, up to and with the blank line, at most.
    static let headLimit = 16 * 1024

    let policy: WebPolicy
    let signIn: WebSignIn?

    enum Verdict {
        /// No blank line yet and still within the limit.
        case incomplete
        case refused(WebRawResponse)
        /// The head, `length` bytes, is within the limit and not refused.
        case passed(length: Int)
    }

    /// `bytes`: everything the connection sent so far, from its first byte.
    func verdict<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Verdict where Bytes.Index == Int {
        guard let end = Self.endOfHead(bytes) else {
            return bytes.count > Self.headLimit ? .refused(Self.tooLarge) : .incomplete
        }
        let length = end - bytes.startIndex
        if length > Self.headLimit { return .refused(Self.tooLarge) }
        if let refusal = upgradeRefusal(WebRawHead(bytes[bytes.startIndex..<end])) {
            return .refused(refusal)
        }
        return .passed(length: length)
    }

    static let tooLarge = WebRawResponse(status: "431 Request Header Fields Too Large", body: "request line and headers over 16 KiB\n")

    /// A WebSocket upgrade the rules refuse, with its answer.
    func upgradeRefusal(_ head: WebRawHead) -> WebRawResponse? {
        guard Self.asksForWebSocket(head) else { return nil }
        return upgradeRefusal(
            host: head.field("host"), origin: head.field("origin"), fetchSite: head.field("sec-fetch-site"),
            cookie: head.field("cookie"))
    }

    /// The answer to a WebSocket upgrade with these header values, if the rules refuse it.
    func upgradeRefusal(host: String?, origin: String?, fetchSite: String?, cookie: String?) -> WebRawResponse? {
        switch policy.checkChange(host: host, origin: origin, fetchSite: fetchSite) {
        case .misdirected: return WebRawResponse(status: "421 Misdirected Request", body: "unknown host\n")
        case .forbidden: return WebRawResponse(status: "403 Forbidden", body: "cross-origin request refused\n")
        case .allowed: break
        }
        if let signIn, !signIn.isSignedIn(cookieHeader: cookie) {
            return WebRawResponse(status: "401 Unauthorized", body: "sign in first\n")
        }
        return nil
    }

    /// Whether NIO's upgrader would hand the request to the WebSocket upgrader: any
    /// `Upgrade` field, any of its comma-separated protocols, in any case — not only an
    /// `Upgrade: websocket` first (`Upgrade: h2c, websocket` upgrades too).
    static func asksForWebSocket(_ head: WebRawHead) -> Bool {
        head.fields("upgrade").contains { value in
            value.split(separator: ",").contains { token in
                token.trimmingBlanks().lowercased() == "websocket"
            }
        }
    }

    /// The index just past the blank line ending the head, if it has arrived.
    static func endOfHead<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Int? where Bytes.Index == Int {
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

extension Substring {
    /// Without the spaces and tabs around it (a list element's optional whitespace).
    fileprivate func trimmingBlanks() -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return self[first...last]
    }
}
