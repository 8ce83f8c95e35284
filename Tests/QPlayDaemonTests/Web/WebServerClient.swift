import Foundation
import QPlayTestSupport

#if canImport(Glibc)
import Glibc
#endif

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
    private let fd: Int32
    private var pending: [UInt8] = []

    init(port: Int, timeoutSeconds: Int = 10) throws {
        self.port = port
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw LineSocketClient.Failure(description: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7f00_0001).bigEndian)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw LineSocketClient.Failure(description: "connect 127.0.0.1:\(port): errno \(code)")
        }
        self.fd = fd
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw LineSocketClient.Failure(description: "send failed: errno \(errno)") }
            offset += n
        }
    }

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
        let head = try readHead()
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw LineSocketClient.Failure(description: "not an HTTP status line: \(head)")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = method == "HEAD" || status == 304 || status == 101 ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        return Reply(status: status, headers: headers, body: try read(count: length))
    }

    private func readHead() throws -> String {
        while true {
            if let end = Self.find([13, 10, 13, 10], in: pending) {
                let head = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeSubrange(..<(end + 4))
                return head
            }
            try fill()
        }
    }

    func read(count: Int) throws -> [UInt8] {
        while pending.count < count { try fill() }
        let bytes = Array(pending[..<count])
        pending.removeSubrange(..<count)
        return bytes
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n == 0 { throw LineSocketClient.Failure(description: "connection closed") }
        if n < 0 { throw LineSocketClient.Failure(description: "receive failed or timed out: errno \(errno)") }
        pending += chunk[..<n]
    }

    /// True once the server closed the connection (end of file or a reset) within
    /// `seconds`; what arrives meanwhile is dropped.
    func isClosedByServer(within seconds: Int) -> Bool {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }

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
