import Foundation
import QPlayDaemon
import QPlayModel
import QPlayProtocol
import QPlayTestSupport
import Synchronization

/// A handler written for transport tests: `ping` answers `{}`, `status` a fixed status,
/// `search` with `limit: N` waits N ms first (to prove ordering), `add` by ids fails with
/// `no_match`, `update` waits until the test opens the gate.
final class TestHandler: RequestHandler {
    let closed: AsyncStream<ConnectionID>
    private let closedContinuation: AsyncStream<ConnectionID>.Continuation
    let started: AsyncStream<ConnectionID>
    private let startedContinuation: AsyncStream<ConnectionID>.Continuation
    private let gate = Mutex<[CheckedContinuation<Void, Never>]>([])
    private let gateOpen = Mutex(false)

    init() {
        (closed, closedContinuation) = AsyncStream.makeStream(of: ConnectionID.self)
        (started, startedContinuation) = AsyncStream.makeStream(of: ConnectionID.self)
    }

    static let status = Status(
        state: .playing, track: Track(id: 7, path: "a/b.mp3", title: "Tone", artist: "Sine", duration: 3),
        entry: 1, index: 0, position: 1.5, duration: 3, queueLength: 1, output: OutputStatus(name: "null"))

    func handle(_ request: Request, connection: ConnectionID) async -> Response {
        switch request.command {
        case .ping: return .empty
        case .status: return .success(Self.status)
        case .search(_, let limit):
            try? await Task.sleep(for: .milliseconds(limit ?? 0))
            return .success(SearchResult(tracks: [Track(id: Int64(limit ?? 0), path: "p", title: "t")]))
        case .add(.ids): return .failure(.noMatch("no track has these ids"))
        case .update:
            startedContinuation.yield(connection)
            await withCheckedContinuation { continuation in
                let open = gateOpen.withLock { $0 }
                if open { continuation.resume() } else { gate.withLock { $0.append(continuation) } }
            }
            return .success(ScanTotals(added: 1, updated: 0, removed: 0, skipped: 0, seconds: 0.5))
        default: return .failure(.unavailable("not in this test"))
        }
    }

    func openGate() {
        gateOpen.withLock { $0 = true }
        for continuation in gate.withLock({ waiting in defer { waiting = [] }; return waiting }) {
            continuation.resume()
        }
    }

    func connectionClosed(_ connection: ConnectionID) async {
        closedContinuation.yield(connection)
    }
}

/// A running server in a fresh directory, torn down by `stop()`.
struct ServerFixture {
    let directory: TemporaryDirectory
    let socketPath: String
    let server: SocketServer
    let handler: TestHandler

    static func start(allowedUID: UInt32 = getuid()) async throws -> ServerFixture {
        let directory = TemporaryDirectory("qplay-server")
        let socketPath = directory.path.string + "/run/qplay.sock"
        let handler = TestHandler()
        let server = SocketServer(
            configuration: .init(socketPath: socketPath, version: "9.8.7", allowedUID: allowedUID),
            handler: handler)
        try await server.start()
        return ServerFixture(directory: directory, socketPath: socketPath, server: server, handler: handler)
    }

    func stop() async {
        handler.openGate()
        await server.shutdown()
        directory.remove()
    }
}

/// Runs blocking socket code on its own thread, so it never holds one of the few
/// threads of Swift's cooperative pool that the server's request loops need.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// Carries a non-Sendable value between test threads that use it one after another.
final class Handoff<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A bare client: connect, write raw bytes, read raw lines. Unlike `SocketClient` it
/// expects nothing from the daemon, so tests can see exactly what arrives.
final class RawConnection {
    let descriptor: Int32
    private var framer = LineFramer(limit: 1 << 24)

    init(path: String) throws {
        // Stored only once connected: a throw after that would run deinit, closing it twice.
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let result = UnixSocketAddress.connect(descriptor, to: path)
        guard result == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: code)!)
        }
        self.descriptor = descriptor
        // A safety net so a broken server fails the test instead of hanging it.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Glibc.close(descriptor) }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written <= 0 { return }
            offset += written
        }
    }

    /// The next line as text; nil at end of stream.
    func line() -> String? {
        while true {
            if case .line(let bytes)? = framer.next() { return String(decoding: bytes, as: UTF8.self) }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            framer.append(chunk[..<count])
        }
    }

    /// The next line parsed as a JSON object.
    func object() throws -> [String: JSONValue] {
        guard let text = line() else { throw EndOfStream() }
        guard case .object(let object) = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
            throw NotAnObject(text: text)
        }
        return object
    }

    struct EndOfStream: Error {}
    struct NotAnObject: Error { let text: String }
}

extension [String: JSONValue] {
    var errorCode: String? {
        guard case .object(let error)? = self["error"], case .string(let code)? = error["code"] else { return nil }
        return code
    }
}
