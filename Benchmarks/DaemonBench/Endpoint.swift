#if canImport(Glibc)
import Glibc
#endif

/// Where a daemon listens: an absolute path is a Unix socket, `HOST:PORT` a TCP address
/// (as `qplayd --mpd` and MPD's `bind_to_address` spell them).
enum Endpoint {
    case unix(String)
    case tcp(host: String, port: String)

    init(_ address: String) {
        if !address.hasPrefix("/"), let colon = address.lastIndex(of: ":") {
            var host = String(address[..<colon])
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            self = .tcp(host: host, port: String(address[address.index(after: colon)...]))
        } else {
            self = .unix(address)
        }
    }

    /// A connected stream socket; nil while nothing listens yet.
    func connect() throws -> Int32? {
        switch self {
        case .unix(let path): return try Self.connectUnix(path)
        case .tcp(let host, let port): return try Self.connectTCP(host: host, port: port)
        }
    }

    private static func connectUnix(_ path: String) throws -> Int32? {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw BenchFailure("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(descriptor)
            throw BenchFailure("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return try finish(descriptor, connected: connected, what: path)
    }

    private static func connectTCP(host: String, port: String) throws -> Int32? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        let looked = getaddrinfo(host, port, &hints, &found)
        guard looked == 0, let info = found else {
            throw BenchFailure("cannot resolve \(host):\(port): \(String(cString: gai_strerror(looked)))")
        }
        defer { freeaddrinfo(found) }
        let descriptor = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw BenchFailure("socket: \(String(cString: strerror(errno)))") }
        // Requests are single small writes answered before the next; without this, Nagle
        // could hold a request back behind an unacknowledged one.
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let connected = Glibc.connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen)
        return try finish(descriptor, connected: connected, what: "\(host):\(port)")
    }

    private static func finish(_ descriptor: Int32, connected: Int32, what: String) throws -> Int32? {
        guard connected != 0 else { return descriptor }
        let code = errno
        close(descriptor)
        if code == ENOENT || code == ECONNREFUSED { return nil }
        throw BenchFailure("connect \(what): \(String(cString: strerror(code)))")
    }
}
