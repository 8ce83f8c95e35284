import NIOCore

/// Whether a bound address is reachable from this machine only. Judged on the address
/// the socket holds after `bind`, not on the name it was given: `localhost` resolves
/// through /etc/hosts and DNS, and may be a LAN address.
enum LoopbackAddress {
    /// 127.0.0.0/8, ::1, or an IPv4-mapped 127.0.0.0/8 (::ffff:127.x.y.z).
    static func contains(_ address: SocketAddress) -> Bool {
        switch address {
        case .v4(let v4):
            let bytes = withUnsafeBytes(of: v4.address.sin_addr) { Array($0) }
            return bytes.first == 127
        case .v6(let v6):
            let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            guard bytes.count == 16 else { return false }
            if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
            let mapped = bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff
            return mapped && bytes[12] == 127
        case .unixDomainSocket:
            return true
        }
    }
}
