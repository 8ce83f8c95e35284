import FoundationEssentials

/// The URLs a stream may have: `http` or `https` with a host (and a port in range).
/// Entries of a playlist fetched over HTTP are resolved against the playlist's own URL,
/// as a browser resolves a link (RFC 3986): `x.mp3`, `/live` and `//host/live` all name
/// streams.
public enum StreamURL {
    /// The schemes a stream may have; MPD's `urlhandlers` and MPRIS's
    /// `SupportedUriSchemes` name them too.
    public static let schemes = ["http", "https"]

    /// Whether `text` starts with a stream scheme and `://` (in any case): what `add`
    /// over MPD and MPRIS's `OpenUri` take as a stream rather than a library path or file.
    public static func isStreamURI(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return schemes.contains { lowered.hasPrefix($0 + "://") }
    }

    /// `text` resolved against `base` (nil: `text` must be absolute) if it names an
    /// `http`/`https` stream; otherwise why not.
    public static func resolve(_ text: String, against base: URL?) -> Result<URL, StreamURLProblem> {
        guard let url = URL(string: text, relativeTo: base)?.absoluteURL else { return .failure(.unparsable) }
        return check(url)
    }

    public static func check(_ url: URL) -> Result<URL, StreamURLProblem> {
        guard let scheme = url.scheme?.lowercased(), !scheme.isEmpty else { return .failure(.unparsable) }
        guard schemes.contains(scheme) else { return .failure(.unsupportedScheme(scheme)) }
        guard let host = url.host(), !host.isEmpty else { return .failure(.noHost) }
        if let port = url.port, !(1...65535).contains(port) { return .failure(.badPort(port)) }
        return .success(url)
    }
}

public enum StreamURLProblem: Error, Equatable, Sendable, CustomStringConvertible {
    case unparsable
    case unsupportedScheme(String)
    case noHost
    case badPort(Int)

    public var description: String {
        switch self {
        case .unparsable: "not a URL"
        case .unsupportedScheme(let scheme): "\(scheme): is not a stream URL (only http and https are)"
        case .noHost: "the URL names no host"
        case .badPort(let port): "port \(port) is out of range"
        }
    }
}
