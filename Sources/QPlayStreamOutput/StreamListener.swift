import Synchronization

/// One listener of the HTTP stream: the bytes for it in order, and how far behind it is.
/// Its connection takes them (`chunks`) and says what it sent (`sent`); one that falls
/// `limit` bytes behind — it stopped reading, or reads slower than the music plays — is
/// dropped: its chunks end and `onDrop` closes its connection, which may be stuck in a
/// write.
public final class StreamListener: Sendable {
    public let chunks: AsyncStream<[UInt8]>
    private let continuation: AsyncStream<[UInt8]>.Continuation
    private let limit: Int
    private let state = Mutex<(backlog: Int, dropped: Bool, onDrop: (@Sendable () -> Void)?)>((0, false, nil))

    init(limit: Int) {
        (chunks, continuation) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .unbounded)
        self.limit = limit
    }

    /// Called when the listener is dropped (set by its connection).
    public func onDrop(_ body: @escaping @Sendable () -> Void) {
        let dropped = state.withLock { state -> Bool in
            state.onDrop = body
            return state.dropped
        }
        if dropped { body() }
    }

    /// The connection sent `count` bytes of its chunks.
    public func sent(_ count: Int) {
        state.withLock { $0.backlog -= count }
    }

    public var isDropped: Bool { state.withLock { $0.dropped } }

    /// Queues `bytes`; false once the listener is dropped (now or before).
    func deliver(_ bytes: [UInt8]) -> Bool {
        let drop = state.withLock { state -> (@Sendable () -> Void)?? in
            guard !state.dropped else { return .some(nil) }
            state.backlog += bytes.count
            guard state.backlog > limit else { return nil }
            state.dropped = true
            return .some(state.onDrop)
        }
        guard let drop else {
            continuation.yield(bytes)
            return true
        }
        continuation.finish()
        drop?()
        return false
    }

    /// The stream ends for it (the daemon stops).
    func finish() {
        continuation.finish()
    }
}
