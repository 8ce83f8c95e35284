#if canImport(Glibc)
import Glibc
#endif

/// A blocking protocol client over a plain POSIX Unix socket: no event loop, so a
/// short-lived command starts and finishes fast. Not thread-safe; one per thread.
public final class SocketClient {
    public let path: String
    /// The daemon's greeting, read on connect.
    public private(set) var greeting = Greeting(protocol: "", version: "")
    public let fileDescriptor: Int32
    /// The longest line read from the daemon, newline not counted. A 100,000-entry
    /// `queue` answer is about 31 MB with everyday tags (60-byte paths, 20-byte titles)
    /// and 44 MB with long ones (120-byte paths, 40-byte titles). A longer line is
    /// dropped as it arrives (never held whole) and reported as `replyTooLong`.
    public static let replyLimit = 64 << 20
    private var framer = LineFramer(limit: SocketClient.replyLimit)
    private var nextID: Int64 = 1
    /// What the next wait is for, to say what did not come when it times out.
    private var awaiting = Awaited.greeting
    /// Events that arrived while waiting for a response, oldest first.
    public private(set) var pendingEvents: [Event] = []
    private var closed = false

    /// Connects and reads the greeting. `timeout` bounds the wait for the connection to
    /// be taken (a daemon out of descriptors leaves it in the listen queue), for the
    /// greeting, for each later line and for each write (nil: wait as long as it
    /// takes). A daemon that turns the connection away (e.g. at its connection cap)
    /// sends an error line instead of the greeting: that is `.refused`.
    public init(path: String, timeout: Double? = nil) throws(ClientError) {
        self.path = path
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .connection(path: path, reason: Self.describe(errno)) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            Glibc.close(descriptor)
            throw .connection(path: path, reason: "the socket path is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        if let timeout {
            // Bounds connect(2) on a full listen queue (Linux waits SO_SNDTIMEO for a Unix
            // socket's peer) and every later send.
            let seconds = min(timeout, 1e9)
            var limit = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
            if limit.tv_sec == 0 && limit.tv_usec == 0 { limit.tv_usec = 1 }
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if connected != 0 {
            let code = errno
            Glibc.close(descriptor)
            if code == ENOENT || code == ECONNREFUSED || code == ENOTDIR {
                throw .noDaemon(path: path, reason: Self.describe(code))
            }
            if code == EAGAIN, let timeout {
                throw .timeout(path: path, awaited: Awaited.connection.description, seconds: timeout)
            }
            throw .connection(path: path, reason: Self.describe(code))
        }
        fileDescriptor = descriptor
        self.timeout = timeout
        do {
            guard let line = try readLine() else { throw ClientError.closed }
            let hello: Greeting
            switch try ServerMessage.decode(line: line) {
            case .greeting(let greeting): hello = greeting
            case .response(let response) where response.error != nil: throw ClientError.refused(response.error!)
            default: throw ClientError.protocolViolation("the first line is not a greeting")
            }
            greeting = hello
            guard hello.protocol == Greeting.protocolName else {
                throw ClientError.protocolViolation("the daemon speaks \(hello.protocol), not \(Greeting.protocolName)")
            }
        } catch let error as ClientError {
            // Through close(): with every stored property set, a throw here runs deinit
            // too, which must not close the descriptor a second time (in a program with
            // threads its number may belong to another file by then).
            close()
            throw error
        } catch let error as ClientDecodingError {
            close()
            throw .protocolViolation(error.message)
        } catch {
            close()
            throw .protocolViolation("\(error)")
        }
    }

    /// Bounds every wait for the daemon, in seconds; nil waits as long as it takes.
    public var timeout: Double?

    deinit { close() }

    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fileDescriptor)
    }

    /// Sends `command` and waits for its response; events arriving meanwhile are kept in
    /// `pendingEvents`.
    public func send(_ command: Command) throws(ClientError) -> ResponseMessage {
        let id = try submit(command)
        while true {
            guard let message = try readMessage() else { throw .closed }
            switch message {
            case .response(let response) where response.id == id: return response
            case .response: continue
            case .event(let event): pendingEvents.append(event)
            case .greeting: continue
            }
        }
    }

    /// Sends `command` without waiting; returns the id its response will carry.
    public func submit(_ command: Command) throws(ClientError) -> RequestID {
        let id = RequestID.integer(nextID)
        nextID += 1
        awaiting = .answer(command.name)
        try write(Request(id: id, command).encodedLine())
        return id
    }

    /// Takes the events kept while waiting for responses.
    public func takePendingEvents() -> [Event] {
        defer { pendingEvents = [] }
        return pendingEvents
    }

    /// Writes raw bytes (a request line must end with a newline).
    public func write(_ bytes: [UInt8]) throws(ClientError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fileDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN, let timeout {
                    // SO_SNDTIMEO ran out: the daemon reads nothing.
                    throw .timeout(path: path, awaited: awaiting.description, seconds: timeout)
                }
                throw errno == EPIPE || errno == ECONNRESET ? .closed : .io(Self.describe(errno))
            }
            offset += written
        }
    }

    /// The next message from the daemon; nil when it closed the connection.
    public func readMessage() throws(ClientError) -> ServerMessage? {
        guard let line = try readLine() else { return nil }
        do {
            return try ServerMessage.decode(line: line)
        } catch {
            throw .protocolViolation(error.message)
        }
    }

    /// The next line (without newline); nil when the daemon closed the connection. The
    /// line must come within `timeout`, counted from the start and again from each
    /// mebibyte received: a long answer that flows is not cut off, and a daemon that
    /// trickles bytes cannot hold the client forever.
    public func readLine() throws(ClientError) -> [UInt8]? {
        var deadline = timeout.map { Self.now() + $0 }
        var receivedSinceDeadline = 0
        while true {
            switch framer.next() {
            case .line(let line)?: return line
            case .tooLong?: throw .replyTooLong(limit: Self.replyLimit)
            case nil: break
            }
            let remaining = deadline.map { max(0, $0 - Self.now()) }
            guard try waitReadable(timeout: remaining) else {
                throw .timeout(path: path, awaited: awaiting.description, seconds: timeout ?? 0)
            }
            let received = try fill()
            guard received > 0 else { return nil }
            receivedSinceDeadline += received
            if let timeout, receivedSinceDeadline >= Self.progressUnit {
                deadline = Self.now() + timeout
                receivedSinceDeadline = 0
            }
        }
    }

    /// How much of a line must arrive to earn it another `timeout`.
    static let progressUnit = 1 << 20

    /// Monotonic seconds.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Whether a line (or an overlong one to report) is buffered, ready without waiting.
    public func hasBufferedLine() -> Bool {
        framer.hasFrame
    }

    /// Waits until the socket has bytes or EOF; false on timeout.
    public func waitReadable(timeout: Double?) throws(ClientError) -> Bool {
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = timeout.map { Int32(max(0, min($0 * 1000, Double(Int32.max)))) } ?? -1
        while true {
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .io(Self.describe(errno))
            }
            return ready > 0
        }
    }

    /// Reads what the socket has into the framer: the byte count, 0 at end of stream.
    private func fill() throws(ClientError) -> Int {
        // Uninitialised: zeroing 64 KiB touches 16 fresh pages, a tenth of the page
        // faults of a whole `qplay status` run, for a reply of a few hundred bytes.
        var failure: Int32 = 0
        let chunk = [UInt8](unsafeUninitializedCapacity: 1 << 16) { buffer, initialized in
            while true {
                let count = recv(fileDescriptor, buffer.baseAddress, buffer.count, 0)
                if count < 0 && errno == EINTR { continue }
                if count < 0 { failure = errno }
                initialized = max(count, 0)
                return
            }
        }
        if failure == ECONNRESET { return 0 }
        if failure != 0 { throw .io(Self.describe(failure)) }
        framer.append(chunk)
        return chunk.count
    }

    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// What a client waits for, named in a timeout's message.
enum Awaited: CustomStringConvertible {
    case connection
    case greeting
    case answer(String)

    /// What follows "qplayd at PATH" in the message.
    var description: String {
        switch self {
        case .connection: "did not take the connection"
        case .greeting: "sent no greeting"
        case .answer(let command): "sent no answer to `\(command)`"
        }
    }
}

/// Why talking to the daemon failed.
public enum ClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing listens on the socket (missing file or refused connection).
    case noDaemon(path: String, reason: String)
    case connection(path: String, reason: String)
    case closed
    /// The daemon did not do its part within `seconds`; `awaited` says what it was
    /// ("sent no greeting", "sent no answer to `status`", "did not take the
    /// connection").
    case timeout(path: String, awaited: String, seconds: Double)
    case io(String)
    /// A line from the daemon that this client cannot read.
    case protocolViolation(String)
    /// The daemon answered the connection with an error instead of its greeting.
    case refused(ProtocolError)
    /// A line from the daemon passed `limit` bytes; it was dropped unread.
    case replyTooLong(limit: Int)

    public var description: String {
        switch self {
        case .noDaemon(let path, let reason): "no qplay daemon at \(path) (\(reason))"
        case .connection(let path, let reason): "cannot connect to \(path): \(reason)"
        case .closed: "the daemon closed the connection"
        case .timeout(let path, let awaited, let seconds):
            "qplayd at \(path) \(awaited) within \(Self.seconds(seconds)) s"
        case .io(let reason): "socket error: \(reason)"
        case .protocolViolation(let reason): "qplayd sent a reply qplay cannot read: \(reason)"
        case .refused(let error): error.message
        case .replyTooLong(let limit): "qplayd sent a reply longer than \(limit >> 20) MiB; qplay does not read it"
        }
    }

    /// `5` rather than `5.0`; fractions as given.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && value.magnitude < 1e15 ? "\(Int64(value))" : "\(value)"
    }
}
