import QPlayStreams

/// A metadata block and the audio byte it belongs before (the stream's offset, counted
/// like `StreamBuffer.bytesWritten`), so the title can change when that audio plays,
/// not when it arrived.
public struct StreamMetadataEvent: Equatable, Sendable {
    public var metadata: ICYMetadata
    public var audioOffset: Int
}

/// One open stream: its answer, the bounded buffer its audio goes to and its metadata
/// events. `pump()` moves the body into the buffer until the stream ends, stalls, the
/// consumer closes the buffer or the task is cancelled.
public final class StreamConnection: Sendable {
    public let response: StreamResponse
    public let buffer: StreamBuffer
    public let events: AsyncStream<StreamMetadataEvent>
    let eventSink: AsyncStream<StreamMetadataEvent>.Continuation
    let transfer: CurlTransfer

    /// `buffer` is the one to fill: a reconnecting player passes each new connection
    /// the buffer its decoder reads, so offsets and the decoder carry on across them.
    init(response: StreamResponse, transfer: CurlTransfer, buffer: StreamBuffer,
         events: AsyncStream<StreamMetadataEvent>, eventSink: AsyncStream<StreamMetadataEvent>.Continuation) {
        self.response = response
        self.transfer = transfer
        self.buffer = buffer
        self.events = events
        self.eventSink = eventSink
    }

    /// A connection dropped without being pumped ends its transfer.
    deinit { transfer.cancel(.closed) }

    /// Reads the body into the buffer; returns why it stopped. With `finishing` (the
    /// default) that is also the buffer's end; a caller that reconnects into the same
    /// buffer passes false and decides itself. Once it returns, nothing more is written.
    @discardableResult
    public func pump(finishing: Bool = true) async -> StreamReadError {
        let reason = await transfer.pump()
        if finishing { buffer.finish(reason) }
        eventSink.finish()
        return reason
    }
}
