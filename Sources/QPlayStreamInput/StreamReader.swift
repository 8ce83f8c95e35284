import FoundationEssentials
import QPlayStreams

/// Opens internet radio streams over HTTP(S) with libcurl: a GET with
/// `Icy-MetaData: 1`, redirects followed (bounded), connect and answer timeouts, and
/// the answer checked before any byte is taken as audio (a 404, an HTML page, a
/// playlist are refused with their reasons). The daemon's URL entries play through it.
/// Each open stream's transfer runs on a thread of its own (`CurlTransfer`).
public final class StreamReader: Sendable {
    public let options: StreamReaderOptions

    public init(options: StreamReaderOptions = StreamReaderOptions()) {
        self.options = options
    }

    /// Nothing is shared between streams: each connection ends with its pump (or when
    /// it is dropped). Kept so that callers end a reader in one place.
    public func shutdown() async throws {}

    /// Sends the request and checks the answer. The connection it returns holds the
    /// open response: run its `pump()` (or drop it) to end it. Its audio goes to
    /// `buffer` when one is given, else to a new one.
    public func open(_ url: URL, into buffer: StreamBuffer? = nil) async throws(StreamReadError) -> StreamConnection {
        guard case .success(let url) = StreamURL.check(url) else { throw .badURL(url.absoluteString) }
        let buffer = buffer ?? StreamBuffer(capacity: options.bufferCapacity)
        // Titles change every few minutes; a consumer that reads none keeps the latest.
        let (events, eventSink) = AsyncStream.makeStream(
            of: StreamMetadataEvent.self, bufferingPolicy: .bufferingNewest(16))
        let transfer = try CurlTransfer(
            url: url, icyMetadata: true, options: options, sink: .stream(buffer, events: eventSink))
        transfer.start()
        let head = try await Self.checkedHead(transfer)
        if let problem = StreamContentType.problem(head.field("content-type")) {
            transfer.cancel(.closed)
            throw problem
        }
        let info = StreamResponse(
            url: URL(string: head.url) ?? url, contentType: head.field("content-type"),
            station: head.field("icy-name"),
            metadataInterval: head.field("icy-metaint").flatMap { Int($0) },
            length: head.field("content-length").flatMap { Int($0) })
        return StreamConnection(response: info, transfer: transfer, buffer: buffer, events: events, eventSink: eventSink)
    }

    /// The transfer's final head when it is a success (2xx); otherwise the transfer is
    /// ended and why is thrown.
    static func checkedHead(_ transfer: CurlTransfer) async throws(StreamReadError) -> CurlTransfer.Head {
        switch await transfer.head() {
        case .failure(let error):
            throw error
        case .success(let head):
            guard (200..<300).contains(head.status) else {
                transfer.cancel(.closed)
                throw .httpStatus(head.status, head.reason)
            }
            return head
        }
    }
}

/// What the server said about the stream.
public struct StreamResponse: Equatable, Sendable {
    /// Where the stream was found, after redirects.
    public var url: URL
    public var contentType: String?
    /// `icy-name`: the station.
    public var station: String?
    /// `icy-metaint`: audio bytes between metadata blocks; nil when the stream has none.
    public var metadataInterval: Int?
    /// `Content-Length`: a file of this many bytes, not a live stream (which has none).
    public var length: Int?
}
