import AsyncHTTPClient
import NIOCore
import QPlayStreams
import Synchronization

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
    let body: HTTPClientResponse.Body
    let stallTimeout: Duration

    /// `buffer` is the one to fill: a reconnecting player passes each new connection
    /// the buffer its decoder reads, so offsets and the decoder carry on across them.
    init(response: StreamResponse, body: HTTPClientResponse.Body, options: StreamReaderOptions, buffer: StreamBuffer?) {
        self.response = response
        self.body = body
        stallTimeout = options.stallTimeout
        self.buffer = buffer ?? StreamBuffer(capacity: options.bufferCapacity)
        // Titles change every few minutes; a consumer that reads none keeps the latest.
        (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(16))
    }

    /// Reads the body into the buffer; returns why it stopped. With `finishing` (the
    /// default) that is also the buffer's end; a caller that reconnects into the same
    /// buffer passes false and decides itself.
    @discardableResult
    public func pump(finishing: Bool = true) async -> StreamReadError {
        let waitingSince = WaitingSince()
        let reason = await withTaskGroup(of: StreamReadError.self) { group in
            group.addTask { await self.copyBody(waitingSince: waitingSince) }
            group.addTask { await self.watchForStalls(waitingSince: waitingSince) }
            let first = await group.next() ?? .closed
            group.cancelAll()
            return first
        }
        if finishing { buffer.finish(reason) }
        eventSink.finish()
        return reason
    }

    func copyBody(waitingSince: WaitingSince) async -> StreamReadError {
        var demultiplexer = response.metadataInterval.flatMap { ICYDemultiplexer(interval: $0) }
        var iterator = body.makeAsyncIterator()
        do {
            while true {
                waitingSince.set(ContinuousClock.now)
                let chunk = try await iterator.next()
                waitingSince.set(nil)
                guard let chunk else { return .ended }
                let bytes = Array(chunk.readableBytesView)
                guard var split = demultiplexer else {
                    guard await buffer.write(bytes[...]) else { return .closed }
                    continue
                }
                let pieces = split.feed(bytes)
                demultiplexer = split
                for piece in pieces {
                    switch piece {
                    case .audio(let audio):
                        guard await buffer.write(audio) else { return .closed }
                    case .metadata(let metadata):
                        eventSink.yield(StreamMetadataEvent(metadata: metadata, audioOffset: buffer.bytesWritten))
                    }
                }
            }
        } catch {
            return Task.isCancelled ? .closed : StreamReader.classify(error, connectTimeout: .zero)
        }
    }

    /// Stalled: the copy has waited for the network longer than the timeout. Time spent
    /// waiting for room in the buffer does not count.
    func watchForStalls(waitingSince: WaitingSince) async -> StreamReadError {
        let tick = stallTimeout / 8
        while !Task.isCancelled {
            try? await Task.sleep(for: tick)
            if let since = waitingSince.get(), ContinuousClock.now - since > stallTimeout {
                let seconds = Double(stallTimeout.components.seconds)
                    + Double(stallTimeout.components.attoseconds) / 1e18
                return .stalled(seconds: seconds)
            }
        }
        return .closed
    }
}

/// When the copy started waiting for the network (nil while it is not).
final class WaitingSince: Sendable {
    let instant = Mutex<ContinuousClock.Instant?>(nil)

    func set(_ value: ContinuousClock.Instant?) { instant.withLock { $0 = value } }
    func get() -> ContinuousClock.Instant? { instant.withLock { $0 } }
}
