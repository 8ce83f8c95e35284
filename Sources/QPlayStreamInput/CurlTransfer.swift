import CCurl
import Dispatch
import Foundation
import QPlayStreams
import Synchronization

/// One GET run by libcurl on a thread of its own. The response head is handed over as
/// soon as the final one (after redirects) is in; the body waits at a gate until the
/// consumer starts pumping, then goes to the sink — a stream buffer (blocking this
/// thread while it is full, which stops reading the socket and lets TCP slow the
/// server) with ICY metadata split off, or a collected playlist. Deadlines, stalls and
/// cancellation are checked on every turn of libcurl's loop.
final class CurlTransfer: Sendable {
    /// The final response head.
    struct Head: Sendable {
        var status: Int
        var reason: String
        /// Header fields in order, names in lower case.
        var fields: [(name: String, value: String)]
        var url: String

        func field(_ name: String) -> String? { fields.first { $0.name == name }?.value }
    }

    enum Sink {
        /// Audio into the buffer; ICY blocks (once the head names their interval) to events.
        case stream(StreamBuffer, events: AsyncStream<StreamMetadataEvent>.Continuation)
        /// The whole body, at most `limit` bytes.
        case collect(limit: Int)
    }

    struct State {
        var sink: Sink
        var demultiplexer: ICYDemultiplexer?
        var collected: [UInt8] = []
        /// The head being received (a redirect's, then the next one's).
        var status = 0
        var reason = ""
        var fields: [(name: String, value: String)] = []
        var head: Head?
        var headWaiter: CheckedContinuation<Result<Head, StreamReadError>, Never>?
        var answerDeadline: ContinuousClock.Instant
        var pumping = false
        /// While the body waits for room in the buffer (that is no stall).
        var writing = false
        var lastData: ContinuousClock.Instant
        var stop: StreamReadError?
        var end: StreamReadError?
        var endWaiter: CheckedContinuation<StreamReadError, Never>?
    }

    struct Handle: @unchecked Sendable {
        // libcurl's handle: used by the transfer's thread, woken from any (curl_multi_wakeup).
        let pointer: OpaquePointer
    }

    let options: StreamReaderOptions
    let state: Mutex<State>
    /// Signalled when the gate opens, when there is room in the buffer and on a stop.
    let wake = DispatchSemaphore(value: 0)
    private let handle = Mutex<Handle?>(nil)

    init(url: URL, icyMetadata: Bool, options: StreamReaderOptions, sink: Sink) throws(StreamReadError) {
        self.options = options
        let now = ContinuousClock.now
        state = Mutex(State(sink: sink, answerDeadline: now + options.answerTimeout, lastData: now))
        let context = Unmanaged.passUnretained(self).toOpaque()
        let milliseconds = options.connectTimeout.components.seconds * 1000
            + options.connectTimeout.components.attoseconds / 1_000_000_000_000_000
        guard let pointer = qplay_curl_transfer_new(
            url.absoluteString, icyMetadata ? 1 : 0, Int(milliseconds), options.maximumRedirects, context,
            { data, size, count, context in CurlTransfer.from(context).header(data, size * count) },
            { data, size, count, context in CurlTransfer.from(context).body(data, size * count) },
            { context in CurlTransfer.from(context).tick() })
        else { throw .network("libcurl could not make a transfer") }
        handle.withLock { $0 = Handle(pointer: pointer) }
    }

    deinit {
        if let handle = handle.withLock({ $0 }) { qplay_curl_transfer_free(handle.pointer) }
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> CurlTransfer {
        Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
    }

    /// Starts the thread; it keeps the transfer alive until libcurl is done.
    func start() {
        let thread = Thread { [self] in
            Thread.current.name = "qplay-stream"
            guard let handle = handle.withLock({ $0 }) else { return }
            let code = Int(qplay_curl_transfer_run(handle.pointer, 100))
            finish(code: code, handle: handle)
        }
        thread.start()
    }

    /// The final head, or why there is none.
    func head() async -> Result<Head, StreamReadError> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { state in
                    if let head = state.head {
                        continuation.resume(returning: .success(head))
                    } else if let end = state.end {
                        continuation.resume(returning: .failure(end))
                    } else {
                        state.headWaiter = continuation
                    }
                }
            }
        } onCancel: {
            cancel(.closed)
        }
    }

    /// Lets the body through and waits for the transfer's end; returns why it ended.
    /// When it returns, nothing more is written.
    func pump() async -> StreamReadError {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { state in
                    state.pumping = true
                    state.lastData = .now
                    if let end = state.end {
                        continuation.resume(returning: end)
                    } else {
                        state.endWaiter = continuation
                    }
                }
                wake.signal()
            }
        } onCancel: {
            cancel(.closed)
        }
    }

    /// The collected body (after `pump` returned).
    var collected: [UInt8] { state.withLock { $0.collected } }

    /// Ends the transfer for `reason` (the first reason given is the one reported).
    func cancel(_ reason: StreamReadError) {
        state.withLock { state in
            if state.stop == nil { state.stop = reason }
        }
        wake.signal()
        if let handle = handle.withLock({ $0 }) { qplay_curl_transfer_wake(handle.pointer) }
    }

    // MARK: libcurl's thread

    private func header(_ data: UnsafeMutablePointer<CChar>?, _ length: Int) -> Int {
        guard let data else { return length }
        var bytes = UnsafeRawBufferPointer(start: data, count: length)[...]
        // Bytes, not characters: "\r\n" is one Character.
        while let last = bytes.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: "\n") { bytes.removeLast() }
        let line = Substring(decoding: bytes, as: UTF8.self)
        let ready = state.withLock { state -> (CheckedContinuation<Result<Head, StreamReadError>, Never>?, Head)? in
            if line.hasPrefix("HTTP/") || line.hasPrefix("ICY ") {
                // A status line starts a response: a redirect's, or the next one.
                let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
                state.status = words.count > 1 ? Int(words[1]) ?? 0 : 0
                state.reason = words.count > 2 ? String(words[2]) : ""
                state.fields = []
                return nil
            }
            if !line.isEmpty {
                if let colon = line.firstIndex(of: ":") {
                    let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                    let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    state.fields.append((name, value))
                }
                return nil
            }
            // The head's end: an interim answer or a redirect libcurl follows is not the one.
            let followed = (300..<400).contains(state.status) && state.fields.contains { $0.name == "location" }
            guard state.status >= 200, !followed, state.head == nil, let handle = handle.withLock({ $0 }) else {
                return nil
            }
            let url = qplay_curl_transfer_url(handle.pointer).map { String(cString: $0) } ?? ""
            let head = Head(status: state.status, reason: state.reason, fields: state.fields, url: url)
            state.head = head
            if case .stream = state.sink, let interval = head.field("icy-metaint").flatMap({ Int($0) }) {
                state.demultiplexer = ICYDemultiplexer(interval: interval)
            }
            defer { state.headWaiter = nil }
            return (state.headWaiter, head)
        }
        if let (waiter, head) = ready { waiter?.resume(returning: .success(head)) }
        return length
    }

    private func body(_ data: UnsafeMutablePointer<CChar>?, _ length: Int) -> Int {
        // The gate: nothing is taken before the consumer pumps.
        while true {
            let (open, stopped) = state.withLock { ($0.pumping, $0.stop != nil) }
            if stopped { return 0 }
            if open { break }
            wake.wait()
        }
        guard let data, length > 0 else { return length }
        let bytes = Array(UnsafeRawBufferPointer(start: data, count: length))
        let sink = state.withLock { state -> Sink in
            state.writing = true
            return state.sink
        }
        defer {
            state.withLock { state in
                state.writing = false
                state.lastData = .now
            }
        }
        switch sink {
        case .collect(let limit):
            return state.withLock { state -> Int in
                guard state.collected.count + length <= limit else {
                    if state.stop == nil { state.stop = .network("the playlist is over \(limit) bytes") }
                    return 0
                }
                state.collected += bytes
                return length
            }
        case .stream(let buffer, let events):
            let stop = { self.state.withLock { $0.stop != nil } }
            let pieces: [ICYDemultiplexer.Piece] = state.withLock { state in
                guard var split = state.demultiplexer else { return [.audio(bytes[...])] }
                let pieces = split.feed(bytes)
                state.demultiplexer = split
                return pieces
            }
            for piece in pieces {
                switch piece {
                case .audio(let audio):
                    guard buffer.write(audio, blocking: wake, stop: stop) else {
                        cancel(.closed)
                        return 0
                    }
                case .metadata(let metadata):
                    events.yield(StreamMetadataEvent(metadata: metadata, audioOffset: buffer.bytesWritten))
                }
            }
            return length
        }
    }

    /// Non-zero ends the transfer: stopped, no answer in time, or stalled.
    private func tick() -> Int32 {
        state.withLock { state -> Int32 in
            if state.stop != nil { return 1 }
            let now = ContinuousClock.now
            if state.head == nil, now > state.answerDeadline {
                state.stop = .noAnswer
                return 1
            }
            if state.pumping, !state.writing, now - state.lastData > options.stallTimeout {
                let timeout = options.stallTimeout
                state.stop = .stalled(seconds: Double(timeout.components.seconds)
                    + Double(timeout.components.attoseconds) / 1e18)
                return 1
            }
            return 0
        }
    }

    private func finish(code: Int, handle: Handle) {
        let message = String(cString: qplay_curl_transfer_error(handle.pointer, Int32(code)))
        let (headWaiter, endWaiter, end) = state.withLock { state in
            let end = state.stop ?? Self.reason(code: code, message: message, connectTimeout: options.connectTimeout,
                                                 answered: state.head != nil)
            state.end = end
            defer {
                state.headWaiter = nil
                state.endWaiter = nil
            }
            return (state.headWaiter, state.endWaiter, end)
        }
        headWaiter?.resume(returning: .failure(end))
        endWaiter?.resume(returning: end)
    }

    /// libcurl's result as a person is told it.
    static func reason(code: Int, message: String, connectTimeout: Duration, answered: Bool) -> StreamReadError {
        switch CURLcode(rawValue: UInt32(code)) {
        case CURLE_OK, CURLE_PARTIAL_FILE:
            return .ended
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .unreachable(message)
        case CURLE_OPERATION_TIMEDOUT:
            // Only the connect timeout is set: the others are the transfer's own checks.
            return .unreachable("no connection within \(connectTimeout.components.seconds) s")
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects
        case CURLE_GOT_NOTHING where answered:
            return .ended
        default:
            if qplay_curl_is_tls_error(Int32(code)) != 0 { return .tls(message) }
            return .network(message)
        }
    }
}
