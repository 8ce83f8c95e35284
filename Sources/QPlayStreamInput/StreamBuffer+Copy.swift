/// The audio thread's read: into the decoder's own memory, without allocating.
extension StreamBuffer {
    public enum CopyResult: Equatable, Sendable {
        case bytes(Int)
        case empty
        case ended(StreamReadError)
    }

    /// Copies up to `destination.count` buffered bytes; never waits.
    public func read(into destination: UnsafeMutableRawBufferPointer) -> CopyResult {
        state.withLock { state in
            guard state.count > 0 else { return state.end.map { .ended($0) } ?? .empty }
            let taken = min(destination.count, state.count)
            let first = min(taken, capacity - state.head)
            state.storage.withUnsafeBytes { storage in
                destination.baseAddress!.copyMemory(from: storage.baseAddress! + state.head, byteCount: first)
                if taken > first {
                    (destination.baseAddress! + first).copyMemory(from: storage.baseAddress!, byteCount: taken - first)
                }
            }
            state.consume(taken, capacity: capacity)
            return .bytes(taken)
        }
    }

    /// Bytes ever read by the consumer: with `StreamMetadataEvent.audioOffset`, when a
    /// title's audio reaches the decoder.
    public var bytesRead: Int { state.withLock { $0.consumed } }

    /// Whether the writer finished (the stream is over once the rest is read).
    public var hasEnded: Bool { state.withLock { $0.end != nil } }
}
