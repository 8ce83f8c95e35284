import QPlayTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A raw TCP descriptor connected to 127.0.0.1:`port`, for clients that misbehave on
/// purpose; `configure` runs before the connect (socket options such as `SO_RCVBUF`).
enum LoopbackSocket {
    static func connected(port: Int, configure: (Int32) -> Void = { _ in }) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw LineSocketClient.Failure(description: "socket: errno \(errno)") }
        configure(descriptor)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw LineSocketClient.Failure(description: "connect port \(port): errno \(errno)")
        }
        return descriptor
    }
}
