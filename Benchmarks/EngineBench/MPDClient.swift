import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// MPD's text protocol over its Unix socket: one command, read to `OK` or `ACK`.
final class MPDClient {
    private let socket: Int32
    private var pending: [UInt8] = []

    init(socketPath: String) throws {
        socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(socketPath.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes + [0])
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else { throw BenchError("cannot connect to MPD at \(socketPath)") }
        _ = try readLine()  // OK MPD version
    }

    deinit { close(socket) }

    @discardableResult
    func command(_ line: String) throws -> [String] {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
        var lines: [String] = []
        while true {
            let reply = try readLine()
            if reply == "OK" { return lines }
            if reply.hasPrefix("ACK") { throw BenchError("MPD: \(line): \(reply)") }
            lines.append(reply)
        }
    }

    func status() throws -> [String: String] {
        var result: [String: String] = [:]
        for line in try command("status") {
            if let colon = line.firstIndex(of: ":") {
                result[String(line[..<colon])] = String(line[line.index(colon, offsetBy: 2)...])
            }
        }
        return result
    }

    private func readLine() throws -> String {
        while true {
            if let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeFirst(newline + 1)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
            guard count > 0 else { throw BenchError("MPD closed the connection") }
            pending += chunk[..<count]
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
