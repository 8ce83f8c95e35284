import QPlayTestSupport
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Binds and listens on a Unix socket at `path` (what the daemon's server does), and
/// returns the descriptor. The file stays when the process dies: a stale socket.
func bindUnixSocket(at path: FilePath) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Errno(rawValue: errno) }
    let bound = UnixSocketAddress.bind(fd, to: path.string)
    guard bound == 0, listen(fd, 4) == 0 else {
        let error = Errno(rawValue: errno)
        close(fd)
        throw error
    }
    return fd
}

/// Whether something accepts connections at `path`.
func canConnect(to path: FilePath) -> Bool {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return UnixSocketAddress.connect(fd, to: path.string) == 0
}
