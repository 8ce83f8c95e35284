import NIOCore

/// A request head's fields as the `WebGate` reads them, before the HTTP decoder: enough
/// for the upgrade's checks (`Host`, `Origin`, `Upgrade`, `Cookie`); the decoder still
/// parses the head properly afterwards.
struct WebRawHead {
    private var fields: [(name: String, value: String)] = []

    init(_ bytes: ByteBufferView.SubSequence) {
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
            fields.append((name, value))
        }
    }

    /// The first field of that (lowercase) name.
    func field(_ name: String) -> String? {
        fields.first(where: { $0.name == name })?.value
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in blanks: String) -> String {
        let set = Set(blanks)
        return String(drop(while: { set.contains($0) }).reversed().drop(while: { set.contains($0) }).reversed())
    }
}

/// A whole response written by hand, for connections refused before HTTP parsing.
struct WebRawResponse {
    var status: String
    var body: String

    var bytes: [UInt8] {
        let text = "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + WebHeaders.security.map { "\($0.0): \($0.1)\r\n" }.joined()
            + "Connection: close\r\n\r\n" + body
        return Array(text.utf8)
    }
}

/// Headers on every answer of the web remote.
enum WebHeaders {
    /// No inline script or style, nothing from elsewhere; `default-src 'self'` covers
    /// the WebSocket to the same host in Chromium.
    static let contentSecurityPolicy = "default-src 'self'"
    static let security: [(String, String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]
}
