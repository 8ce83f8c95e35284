#if canImport(Glibc)
import Glibc
#endif

/// A Unix socket path as the `sockaddr` that `connect(2)` and `bind(2)` take, for the
/// tests' own raw clients and listeners (which must see the daemon's bytes unfiltered).
public enum UnixSocketAddress {
    /// Calls `body` with `path` as a `sockaddr_un`; nil when the path does not fit in
    /// `sun_path` (107 bytes and its NUL).
    public static func with<Result>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) -> Result? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// `connect(2)` of `descriptor` to `path`: 0, or -1 with `errno` set.
    public static func connect(_ descriptor: Int32, to path: String) -> Int32 {
        with(path) { Glibc.connect(descriptor, $0, $1) } ?? { errno = ENAMETOOLONG; return -1 }()
    }

    /// `bind(2)` of `descriptor` to `path`: 0, or -1 with `errno` set.
    public static func bind(_ descriptor: Int32, to path: String) -> Int32 {
        with(path) { Glibc.bind(descriptor, $0, $1) } ?? { errno = ENAMETOOLONG; return -1 }()
    }
}
