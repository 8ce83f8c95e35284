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
