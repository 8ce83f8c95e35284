import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP port that was free a moment ago: the kernel picks one for a socket
/// bound to port 0, which is closed again so a server started next can bind it.
public enum FreeTCPPort {
    public static func probe() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw LineSocketClient.Failure(description: "socket: \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7f00_0001).bigEndian)
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw LineSocketClient.Failure(description: "no free loopback port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
