import Foundation
import QPlayTestSupport

/// A raw TCP client for the web remote's tests: HTTP requests written byte by byte (so
/// a test can send what no browser would), answers read back whole, and a small RFC 6455
/// client for `/ws` (masked text frames out, unmasked frames in).
final class WebServerClient {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    let port: Int
    /// The connection: HTTP heads are lines (their "\r" dropped), bodies and frames bytes.
    private let connection: LineSocketClient

    init(port: Int, timeoutSeconds: Int = 10) throws {
        self.port = port
        connection = try LineSocketClient(host: "127.0.0.1", port: port, timeoutSeconds: timeoutSeconds)
    }

    func send(_ bytes: [UInt8]) throws { try connection.send(raw: bytes) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// A request with `Host: 127.0.0.1:PORT` unless `headers` names a host of its own.
    func request(
        _ method: String = "GET", _ path: String, headers: [(String, String)] = [], body: String = ""
    ) throws -> Reply {
        var text = "\(method) \(path) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "host" }) { text += "Host: 127.0.0.1:\(port)\r\n" }
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !body.isEmpty { text += "Content-Length: \(body.utf8.count)\r\n" }
        try send(text + "\r\n" + body)
        return try readReply(method: method)
    }

    func readReply(method: String = "GET") throws -> Reply {
        let head = try headLine()
        let statusLine = head.split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw LineSocketClient.Failure(description: "not an HTTP status line: \(head)")
        }
        var headers: [String: String] = [:]
        while true {
            let line = try headLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = method == "HEAD" || status == 304 || status == 101 ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        return Reply(status: status, headers: headers, body: try read(count: length))
    }

    /// A line of the head without its CRLF; empty at the head's end.
    private func headLine() throws -> String {
        let line = try connection.readLine()
        return line.hasSuffix("\r") ? String(line.dropLast()) : line
    }

    func read(count: Int) throws -> [UInt8] { try connection.read(count: count) }

    /// True once the server closed the connection (end of file or a reset) within
    /// `seconds`; what arrives meanwhile is dropped.
    func isClosedByServer(within seconds: Int) -> Bool { connection.isClosedByServer(within: seconds) }

    // MARK: WebSocket

    /// Sends the upgrade for `/ws` and returns the answer's head (101 when upgraded).
    func upgrade(origin: String?, host: String? = nil, extra: [(String, String)] = []) throws -> Reply {
        var headers = [
            ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
            ("Sec-WebSocket-Version", "13"),
        ]
        if let host { headers.append(("Host", host)) }
        if let origin { headers.append(("Origin", origin)) }
        return try request("GET", "/ws", headers: headers + extra)
    }

    func sendText(_ text: String) throws {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count < 65536 {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try send(frame)
    }

    /// The next message: (opcode, payload); a close frame comes back as opcode 8.
    func readFrame() throws -> (opcode: UInt8, payload: [UInt8]) {
        let start = try read(count: 2)
        var length = Int(start[1] & 0x7F)
        if length == 126 {
            let bytes = try read(count: 2)
            length = Int(bytes[0]) << 8 | Int(bytes[1])
        } else if length == 127 {
            length = try read(count: 8).reduce(0) { $0 << 8 | Int($1) }
        }
        return (start[0] & 0x0F, try read(count: length))
    }

    func readText() throws -> String {
        let frame = try readFrame()
        guard frame.opcode == 1 else {
            throw LineSocketClient.Failure(description: "expected a text message, got opcode \(frame.opcode)")
        }
        return String(decoding: frame.payload, as: UTF8.self)
    }

    func readObject() throws -> [String: Any] {
        let text = try readText()
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw LineSocketClient.Failure(description: "not a JSON object: \(text)")
        }
        return object
    }
}
