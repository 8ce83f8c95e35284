import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP port that was free a moment ago, for a server started next to bind.
/// Taken below the kernel's ephemeral range: a port from bind(0) comes from that range,
/// where every outgoing connection of the tests running beside takes its local port
/// too, and one took a real MPD's port between the probe and MPD's bind (MPD exited, and
/// its harness had greeted another test's server on that port).
public enum FreeTCPPort {
    public static func probe() throws -> Int {
        let range = lowPorts
        for _ in 0..<200 {
            let port = Int.random(in: range)
            if isFree(port) { return port }
        }
        throw LineSocketClient.Failure(description: "no free loopback port in \(range)")
    }

    /// Whether process `pid` holds the socket listening on loopback TCP `port`: the
    /// listener's inode (in /proc/net/tcp, state 0A) among the process's descriptors.
    public static func isHeld(_ port: Int, byProcess pid: pid_t) -> Bool {
        let digits = String(port, radix: 16, uppercase: true)
        let suffix = ":" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        let table = (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)) ?? ""
        var inodes: Set<String> = []
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count > 9, fields[1].hasSuffix(suffix), fields[3] == "0A" {
                inodes.insert("socket:[\(fields[9])]")
            }
        }
        let folder = "/proc/\(pid)/fd"
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in descriptors {
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(name)"),
                inodes.contains(target)
            {
                return true
            }
        }
        return false
    }

    /// From 10000 up to the start of the ephemeral range (32768 by default).
    private static var lowPorts: ClosedRange<Int> {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let start = text.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32768
        return start > 11000 ? 10000...(start - 1) : 1024...(start - 1)
    }

    private static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7f00_0001).bigEndian)
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
