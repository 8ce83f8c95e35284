/// Why a stream could not be opened, or why it stopped: what a person is told when a
/// radio URL is skipped or drops out.
public enum StreamReadError: Error, Equatable, Sendable, CustomStringConvertible {
    case badURL(String)
    /// No connection: refused, no route, no such host, or none within the connect timeout.
    case unreachable(String)
    /// Connected, but no answer (response head) in time.
    case noAnswer
    case httpStatus(Int, String)
    /// The answer is not audio: an HTML page, JSON, a picture … (its content type).
    case notAudio(String)
    /// The answer is a playlist (m3u, pls) rather than a stream: its content type.
    case playlist(String)
    case tooManyRedirects
    case tls(String)
    /// No byte arrived for this many seconds while the reader was waiting for one.
    case stalled(seconds: Double)
    /// The server closed the stream.
    case ended
    /// The consumer closed the buffer, or the reading task was cancelled.
    case closed
    case network(String)

    public var description: String {
        switch self {
        case .badURL(let url): "\(url) is not an http or https URL"
        case .unreachable(let why): "cannot connect: \(why)"
        case .noAnswer: "the server did not answer"
        case .httpStatus(let code, let reason): "the server answered \(code) \(reason)"
        case .notAudio(let type): "not audio but \(type)"
        case .playlist(let type): "a playlist (\(type)), not a stream"
        case .tooManyRedirects: "too many redirects"
        case .tls(let why): "TLS failed: \(why)"
        case .stalled(let seconds): "no data for \(Int(seconds.rounded())) s"
        case .ended: "the server ended the stream"
        case .closed: "closed"
        case .network(let why): "network error: \(why)"
        }
    }
}
