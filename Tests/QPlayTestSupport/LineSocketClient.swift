import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A raw protocol client for tests: a blocking Unix or TCP stream socket that writes and
/// reads JSON lines (or MPD's, or HTTP's heads), with a receive timeout so a silent
/// daemon fails the test instead of hanging it.
public final class LineSocketClient {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    private let fd: Int32
    private var pending: [UInt8] = []

    public convenience init(path: String, timeoutSeconds: Int = 10) throws {
        try self.init(family: AF_UNIX, peer: path, timeoutSeconds: timeoutSeconds) { UnixSocketAddress.connect($0, to: path) }
    }

    /// A TCP connection to `host:port` (an IPv4 address), for the line protocols served
    /// over TCP (MPD's), with the same framing and receive timeout.
    public convenience init(host: String, port: Int, timeoutSeconds: Int = 10) throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw Failure(description: "not an IPv4 address: \(host)")
        }
        let peer = address
        try self.init(family: AF_INET, peer: "\(host):\(port)", timeoutSeconds: timeoutSeconds) { fd in
            withUnsafePointer(to: peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    /// A stream socket of `family`, connected by `connect` (0 or -1 with errno, as
    /// connect(2)); `peer` names the far end in the failure.
    private init(family: Int32, peer: String, timeoutSeconds: Int, connect: (Int32) -> Int32) throws {
        // Close-on-exec: the qplay and qplayd processes a test starts must not inherit it.
        // The descriptor is stored only once connected: a class whose init throws after
        // its stored properties are set runs deinit too, which would close it a second
        // time — by then perhaps another thread's new descriptor with the same number.
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        guard connect(fd) == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "connect \(peer): \(String(cString: strerror(code)))")
        }
        self.fd = fd
        setReceiveTimeout(seconds: timeoutSeconds)
    }

    deinit {
        close(fd)
    }

    private func setReceiveTimeout(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends raw bytes as they are (a line must end in "\n" to count as one).
    public func send(raw bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send failed: \(errno)") }
            offset += n
        }
    }

    public func send(_ line: String) throws {
        try send(raw: Array((line + "\n").utf8))
    }

    /// The next line without its newline; throws on timeout or a closed connection.
    public func readLine() throws -> String {
        while true {
            if let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            try fill()
        }
    }

    /// The next `count` bytes, whatever they are (a body after a head read as lines).
    public func read(count: Int) throws -> [UInt8] {
        while pending.count < count { try fill() }
        let bytes = Array(pending[..<count])
        pending.removeSubrange(..<count)
        return bytes
    }

    /// What one receive brings, added to `pending`; throws on timeout or a closed connection.
    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n == 0 { throw Failure(description: "connection closed") }
        if n < 0 { throw Failure(description: "receive failed or timed out: errno \(errno)") }
        pending += chunk[..<n]
    }

    /// True once the server has closed the connection (reading gives end of file or a
    /// reset); false when it is still open after `seconds`. What it reads is dropped.
    public func isClosedByServer(within seconds: Int = 10) -> Bool {
        setReceiveTimeout(seconds: seconds)
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
        }
    }

    /// The next line decoded as a JSON object.
    public func readObject() throws -> [String: Any] {
        let line = try readLine()
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw Failure(description: "not a JSON object: \(line)")
        }
        return object
    }

    /// The next line if one arrives within `seconds`, else nil.
    public func readLineIfAny(within seconds: Double) throws -> String? {
        if pending.contains(10) { return try readLine() }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(seconds * 1000)) > 0 else { return nil }
        return try readLine()
    }

    /// Sends a request and returns the response with the same id, skipping events.
    public func request(_ cmd: String, _ args: [String: Any]? = nil, id: Int = Int.random(in: 1...1_000_000))
        throws -> [String: Any]
    {
        var object: [String: Any] = ["id": id, "cmd": cmd]
        if let args { object["args"] = args }
        let data = try JSONSerialization.data(withJSONObject: object)
        try send(String(decoding: data, as: UTF8.self))
        while true {
            let response = try readObject()
            if response["event"] != nil { continue }
            if (response["id"] as? Int) == id { return response }
        }
    }
}
