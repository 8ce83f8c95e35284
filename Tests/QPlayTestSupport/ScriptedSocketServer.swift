import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A Unix-socket listener that plays a misbehaving daemon — one that never greets, one
/// that greets and never answers, one that turns connections away, one that sends a
/// huge line — so the real `qplay` can be run against it. Each accepted connection gets
/// `script` on a thread of its own and is closed when the script returns; `stop()` shuts
/// down the ones still open.
public final class ScriptedSocketServer: @unchecked Sendable {
    public let path: String
    private let listener: Int32
    private let script: @Sendable (Int32) -> Void
    private let lock = NSLock()
    private var connections: [Int32] = []
    /// The client ends `fillQueue` made.
    private var fillers: [Int32] = []
    private var accepted = 0
    private var stopped = false
    private let acceptor = DispatchGroup()

    /// `accepting` false: a listener with a queue of one that never accepts, like a
    /// daemon out of descriptors; `fillQueue()` then makes it full.
    public init(
        path: String, accepting: Bool = true, script: @escaping @Sendable (_ connection: Int32) -> Void = { _ in }
    ) throws {
        self.path = path
        self.script = script
        unlink(path)
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let bound = UnixSocketAddress.bind(listener, to: path)
        guard listener >= 0, bound == 0, listen(listener, accepting ? 64 : 0) == 0 else {
            let reason = String(cString: strerror(errno))
            if listener >= 0 { close(listener) }
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "listen on \(path): \(reason)"])
        }
        guard accepting else { return }
        acceptor.enter()
        Thread { [self] in
            defer { acceptor.leave() }
            while true {
                let connection = accept(listener, nil, nil)
                if connection < 0 {
                    if errno == EINTR { continue }
                    return
                }
                // Not inherited by the qplay children the tests spawn.
                _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                lock.lock()
                if stopped {
                    lock.unlock()
                    close(connection)
                    return
                }
                connections.append(connection)
                accepted += 1
                lock.unlock()
                Thread { [self] in
                    script(connection)
                    lock.lock()
                    connections.removeAll { $0 == connection }
                    lock.unlock()
                    close(connection)
                }.start()
            }
        }.start()
    }

    /// Connections accepted so far.
    public var acceptedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return accepted
    }

    /// Closes the listener and shuts every open connection down (a script blocked on one
    /// sees an error and returns; its thread closes the descriptor).
    public func stop() {
        lock.lock()
        stopped = true
        let open = connections
        connections = []
        lock.unlock()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        acceptor.wait()
        for connection in open { shutdown(connection, Int32(SHUT_RDWR)) }
        lock.lock()
        for filler in fillers { close(filler) }
        fillers = []
        lock.unlock()
        unlink(path)
    }

    // MARK: scripts

    public static let greeting = Array(#"{"protocol":"qplay/1","version":"test"}"#.utf8) + [10]

    /// Writes all of `bytes`; false once the peer is gone.
    @discardableResult
    public static func write(_ bytes: [UInt8], to connection: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    /// The next line (a request) without its newline; nil when the peer left first.
    @discardableResult
    public static func readLine(from connection: Int32) -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = recv(connection, &byte, 1, 0)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return nil }
            if byte == 10 { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }

    /// Connects to the listener without waiting until its queue is full (a listener
    /// made with `accepting: false`); the connections stay until `stop()`.
    public func fillQueue() {
        while true {
            let connection = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            let connected = UnixSocketAddress.connect(connection, to: path)
            guard connected == 0 else {
                close(connection)
                return
            }
            lock.lock()
            fillers.append(connection)
            lock.unlock()
        }
    }

    /// Reads and drops everything until the peer leaves.
    public static func drain(_ connection: Int32) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
        }
    }
}
