import Dispatch
import Synchronization

/// The bytes between the network and the decoder: a ring of fixed capacity. The network
/// side waits while it is full — the connection then stops reading and TCP slows the
/// server — so memory never grows with a consumer that falls behind. The consumer side
/// never waits unless it asks to (`read` is for the audio thread, `next` for tasks).
public final class StreamBuffer: Sendable {
    public enum ReadResult: Equatable, Sendable {
        case bytes([UInt8])
        /// Nothing buffered now; more may come.
        case empty
        /// Everything buffered was read and the stream is over, for this reason.
        case ended(StreamReadError)
    }

    struct State {
        var storage: [UInt8]
        var head = 0
        var count = 0
        var written = 0
        var consumed = 0
        var end: StreamReadError?
        var closed = false
        var writer: Writer?
        var reader: CheckedContinuation<Void, Never>?

        /// Who waits for room: a task, or a thread (the network reader's).
        enum Writer {
            case task(CheckedContinuation<Void, Never>)
            case thread(DispatchSemaphore)

            func wake() {
                switch self {
                case .task(let continuation): continuation.resume()
                case .thread(let semaphore): semaphore.signal()
                }
            }
        }

        /// `taken` bytes left the ring from `head`: a writer waiting for room goes on.
        mutating func consume(_ taken: Int, capacity: Int) {
            head = (head + taken) % capacity
            count -= taken
            consumed += taken
            if let writer {
                self.writer = nil
                writer.wake()
            }
        }
    }

    public let capacity: Int
    let state: Mutex<State>

    public init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        state = Mutex(State(storage: [UInt8](repeating: 0, count: capacity)))
    }

    /// Bytes waiting to be read.
    public var available: Int { state.withLock { $0.count } }
    /// Bytes ever written: the offset in the stream's audio that the next byte has.
    public var bytesWritten: Int { state.withLock { $0.written } }

    /// Appends `bytes`, waiting for room as long as needed. False when the consumer
    /// closed the buffer (or the task was cancelled): the writer should stop.
    public func write(_ bytes: ArraySlice<UInt8>) async -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            guard let copied = copyIn(rest) else { return false }
            rest = rest.dropFirst(copied)
            // What did not fit waits for the consumer (the ring is full now).
            if !rest.isEmpty {
                await waitForRoom()
                if Task.isCancelled { return false }
            }
        }
        return true
    }

    /// `write` for a thread of its own: blocks it while the ring is full. `room` is
    /// signalled when there is room; whoever makes `stop` true signals it too. False
    /// when the consumer closed the buffer or `stop` said so.
    public func write(_ bytes: ArraySlice<UInt8>, blocking room: DispatchSemaphore, stop: () -> Bool) -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            guard !stop(), let copied = copyIn(rest) else { return false }
            rest = rest.dropFirst(copied)
            if !rest.isEmpty {
                let waits = state.withLock { state -> Bool in
                    guard state.count == capacity, !state.closed else { return false }
                    state.writer = .thread(room)
                    return true
                }
                if waits { room.wait() }
            }
        }
        return true
    }

    /// Copies what fits of `bytes` into the ring; nil when the buffer is closed.
    private func copyIn(_ bytes: ArraySlice<UInt8>) -> Int? {
        state.withLock { state -> Int? in
            guard !state.closed else { return nil }
            let room = capacity - state.count
            let taken = min(room, bytes.count)
            var tail = (state.head + state.count) % capacity
            for byte in bytes.prefix(taken) {
                state.storage[tail] = byte
                tail = tail + 1 == capacity ? 0 : tail + 1
            }
            state.count += taken
            state.written += taken
            if taken > 0, let reader = state.reader {
                state.reader = nil
                reader.resume()
            }
            return taken
        }
    }

    /// Up to `maximum` bytes if any are buffered; never waits.
    public func read(maximum: Int) -> ReadResult {
        state.withLock { state in
            guard state.count > 0 else { return state.end.map { .ended($0) } ?? .empty }
            let taken = min(maximum, state.count)
            var bytes = [UInt8]()
            bytes.reserveCapacity(taken)
            let first = min(taken, capacity - state.head)
            bytes += state.storage[state.head..<state.head + first]
            bytes += state.storage[0..<taken - first]
            state.consume(taken, capacity: capacity)
            return .bytes(bytes)
        }
    }

    /// Up to `maximum` bytes, waiting until some are buffered or the stream ended.
    public func next(maximum: Int) async -> ReadResult {
        while true {
            let result = read(maximum: maximum)
            guard result == .empty, !Task.isCancelled else { return result }
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    state.withLock { state in
                        if state.count > 0 || state.end != nil || Task.isCancelled {
                            continuation.resume()
                        } else {
                            state.reader = continuation
                        }
                    }
                }
            } onCancel: {
                state.withLock { state in
                    state.reader?.resume()
                    state.reader = nil
                }
            }
        }
    }

    /// The writer's last word: the consumer reads what is buffered, then `.ended(reason)`.
    public func finish(_ reason: StreamReadError) {
        state.withLock { state in
            if state.end == nil { state.end = reason }
            state.reader?.resume()
            state.reader = nil
        }
    }

    /// Drops what is buffered as if it had been read (`bytesRead` stays in step with
    /// `bytesWritten`, so metadata offsets still line up) and lets a waiting writer go
    /// on: a stream rejoined live after a pause plays nothing of the stale audio.
    public func discard() {
        state.withLock { state in
            state.consume(state.count, capacity: capacity)
        }
    }

    /// The consumer is done: buffered bytes are dropped and the writer stops.
    public func close() {
        state.withLock { state in
            state.closed = true
            state.count = 0
            state.writer?.wake()
            state.writer = nil
        }
    }

    func waitForRoom() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { state in
                    if state.count < capacity || state.closed || Task.isCancelled {
                        continuation.resume()
                    } else {
                        state.writer = .task(continuation)
                    }
                }
            }
        } onCancel: {
            state.withLock { state in
                state.writer?.wake()
                state.writer = nil
            }
        }
    }
}
