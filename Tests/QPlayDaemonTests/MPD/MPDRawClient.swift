import Foundation
import QPlayTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A raw MPD client for the end-to-end tests: a blocking TCP or Unix stream socket that
/// sends lines and reads MPD's answers up to their `OK` or `ACK`, with a receive timeout
/// so a silent daemon fails the test instead of hanging it.
final class MPDRawClient {
    private let fd: Int32
    private var pending: [UInt8] = []
    /// The greeting line the server sent.
    private(set) var greeting = ""

    /// Connects to 127.0.0.1:`port` and reads the greeting.
    init(port: Int, timeoutSeconds: Int = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw LineSocketClient.Failure(description: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw LineSocketClient.Failure(description: "connect 127.0.0.1:\(port): \(String(cString: strerror(code)))")
        }
        try finishSetUp(timeoutSeconds)
    }

    /// Connects to the Unix socket at `path` and reads the greeting.
    init(path: String, timeoutSeconds: Int = 10) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw LineSocketClient.Failure(description: "socket: \(errno)") }
        guard UnixSocketAddress.connect(fd, to: path) == 0 else {
            let code = errno
            close(fd)
            throw LineSocketClient.Failure(description: "connect \(path): \(String(cString: strerror(code)))")
        }
        try finishSetUp(timeoutSeconds)
    }

    private func finishSetUp(_ timeoutSeconds: Int) throws {
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        greeting = try readLine()
    }

    deinit {
        close(fd)
    }

    func send(raw bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw LineSocketClient.Failure(description: "send failed: \(errno)") }
            offset += n
        }
    }

    func send(_ line: String) throws {
        try send(raw: Array((line + "\n").utf8))
    }

    func readLine() throws -> String {
        while true {
            if let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { throw LineSocketClient.Failure(description: "connection closed") }
            if n < 0 { throw LineSocketClient.Failure(description: "receive failed or timed out: errno \(errno)") }
            pending += chunk[..<n]
        }
    }

    /// The lines of one answer, its final `OK` or `ACK …` line included.
    func readAnswer() throws -> [String] {
        var lines: [String] = []
        while true {
            let line = try readLine()
            lines.append(line)
            if line == "OK" || line.hasPrefix("ACK ") { return lines }
        }
    }

    /// Sends one command and returns its answer.
    @discardableResult
    func command(_ line: String) throws -> [String] {
        try send(line)
        return try readAnswer()
    }

    /// The `key: value` fields of a command's answer (a key seen twice keeps the first);
    /// fails when the answer is an ACK.
    func fields(_ line: String) throws -> [String: String] {
        let answer = try command(line)
        guard answer.last == "OK" else { throw LineSocketClient.Failure(description: "\(line): \(answer)") }
        var fields: [String: String] = [:]
        for entry in answer.dropLast() {
            guard let colon = entry.range(of: ": ") else { continue }
            let key = String(entry[..<colon.lowerBound])
            if fields[key] == nil { fields[key] = String(entry[colon.upperBound...]) }
        }
        return fields
    }

    /// True once the server has closed the connection (reading gives end of file or a
    /// reset); false when it is still open after `seconds`.
    func isClosedByServer(within seconds: Int = 10) -> Bool {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
        }
    }
}

/// A TCP port on 127.0.0.1 that nothing listens on now (the kernel's pick for port 0).
func freeLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    guard bound else { throw LineSocketClient.Failure(description: "no free port: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// A started qplayd serving MPD on a free loopback port and a Unix socket, its library
/// indexed (Samples/ by default).
struct MPDDaemon {
    let daemon: DaemonProcess
    let port: Int
    var socketPath: String { daemon.directory.appending("run/mpd.sock").string }

    init(config: String? = nil) throws {
        daemon = DaemonProcess()
        port = try freeLoopbackPort()
        var arguments = ["--mpd", "127.0.0.1:\(port)", "--mpd", daemon.directory.appending("run/mpd.sock").string]
        if let config { arguments += ["--config", try daemon.writeConfig(config)] }
        try daemon.start(arguments)
        try daemon.waitForLibrary()
    }

    func client() throws -> MPDRawClient {
        try MPDRawClient(port: port)
    }

    func stop() {
        daemon.stop()
        daemon.directory.remove()
    }
}
