import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import QPlayStreams

/// Opens internet radio streams over HTTP(S) with async-http-client: a GET with
/// `Icy-MetaData: 1`, redirects followed (bounded), connect and answer timeouts, and
/// the answer checked before any byte is taken as audio (a 404, an HTML page, a
/// playlist are refused with their reasons). The daemon's URL entries play through it.
public final class StreamReader: Sendable {
    public let options: StreamReaderOptions
    let client: HTTPClient

    public init(options: StreamReaderOptions = StreamReaderOptions(),
                eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.options = options
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: options.maximumRedirects, allowCycles: false),
            timeout: .init(connect: TimeAmount(options.connectTimeout)),
            // Compressed audio is not compressed again; a server that did would break
            // the ICY byte count.
            decompression: .disabled)
        configuration.httpVersion = .http1Only
        client = HTTPClient(eventLoopGroupProvider: .shared(eventLoopGroup), configuration: configuration)
    }

    /// Ends the client's connections; call once, after the last stream is done.
    public func shutdown() async throws { try await client.shutdown() }

    /// Sends the request and checks the answer. The connection it returns holds the
    /// open response: run its `pump()` (or drop it) to end it. Its audio goes to
    /// `buffer` when one is given, else to a new one.
    public func open(_ url: URL, into buffer: StreamBuffer? = nil) async throws(StreamReadError) -> StreamConnection {
        guard case .success(let url) = StreamURL.check(url) else { throw .badURL(url.absoluteString) }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Icy-MetaData", value: "1")
        request.headers.add(name: "User-Agent", value: "qplay")
        request.headers.add(name: "Accept", value: "*/*")
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: TimeAmount(options.answerTimeout))
        } catch {
            throw Self.classify(error, connectTimeout: options.connectTimeout)
        }
        guard (200..<300).contains(response.status.code) else {
            throw .httpStatus(Int(response.status.code), response.status.reasonPhrase)
        }
        if let problem = StreamContentType.problem(response.headers.first(name: "Content-Type")) { throw problem }
        let info = StreamResponse(
            url: response.url ?? url, contentType: response.headers.first(name: "Content-Type"),
            station: response.headers.first(name: "icy-name"),
            metadataInterval: response.headers.first(name: "icy-metaint").flatMap { Int($0) },
            length: response.headers.first(name: "Content-Length").flatMap { Int($0) })
        return StreamConnection(response: info, body: response.body, options: options, buffer: buffer)
    }

    /// async-http-client's errors as a person is told them.
    static func classify(_ error: any Error, connectTimeout: Duration) -> StreamReadError {
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout:
                return .unreachable("no connection within \(connectTimeout.components.seconds) s")
            case .deadlineExceeded: return .noAnswer
            case .redirectLimitReached, .redirectCycleDetected: return .tooManyRedirects
            case .readTimeout: return .stalled(seconds: 0)
            case .remoteConnectionClosed: return .ended
            case .cancelled: return .closed
            default: return .network(String(describing: error))
            }
        }
        if error is CancellationError { return .closed }
        if let error = error as? NIOSSLError { return .tls(String(describing: error)) }
        if let error = error as? BoringSSLError { return .tls(String(describing: error)) }
        if let error = error as? NIOSSLExtraError { return .tls(String(describing: error)) }
        if let error = error as? IOError { return .unreachable(error.description) }
        if let error = error as? NIOConnectionError {
            return .unreachable(error.connectionErrors.first.map { String(describing: $0.error) } ?? "no address")
        }
        return .network(String(describing: error))
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

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
