import SystemPackage

/// Where the MPD frontend listens: `HOST:PORT` (TCP; `[V6]:PORT` for an IPv6 literal
/// with its colons) or an absolute path (a Unix socket).
public enum MPDAddress: Sendable, Equatable, CustomStringConvertible {
    case tcp(host: String, port: Int)
    case unix(FilePath)

    public struct Failure: Error, Equatable {
        public var reason: String
    }

    /// Parses one address as written in `mpd_listen` or after `--mpd`.
    public static func parse(_ text: String) throws(Failure) -> MPDAddress {
        if text.isEmpty { throw Failure(reason: "the address is empty; use HOST:PORT or an absolute socket path") }
        if text.hasPrefix("/") {
            if text.utf8.contains(0) { throw Failure(reason: "the socket path contains a NUL byte") }
            let path = FilePath(text).lexicallyNormalized()
            let length = path.string.utf8.count
            if length > 107 {
                throw Failure(reason: "the socket path is \(length) bytes long; a Unix socket path holds at most 107")
            }
            return .unix(path)
        }
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw Failure(reason: "'\(text)' is not [IPV6]:PORT")
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw Failure(reason: "'\(text)' has no port; use HOST:PORT (e.g. 127.0.0.1:6600) or an absolute socket path")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            if host.contains(":") {
                throw Failure(reason: "'\(text)': write an IPv6 address in brackets, e.g. [::1]:6600")
            }
        }
        if host.isEmpty || host.contains(where: { $0 == " " || $0 == "\t" }) {
            throw Failure(reason: "'\(text)' has no usable host")
        }
        guard let port = Int(portText), portText.allSatisfy(\.isASCII) else {
            throw Failure(reason: "'\(text)': the port '\(portText)' is not a number")
        }
        guard (1...65535).contains(port) else {
            throw Failure(reason: "'\(text)': port \(port) is out of range 1...65535")
        }
        return .tcp(host: String(host), port: port)
    }

    /// Reachable from this machine only: a Unix socket, `localhost`, 127.0.0.0/8 or ::1.
    /// Any other TCP address needs `mpd_password`.
    public var isLocal: Bool {
        switch self {
        case .unix: return true
        case .tcp(let host, _):
            let lowered = host.lowercased()
            if lowered == "localhost" || lowered == "::1" || lowered == "0:0:0:0:0:0:0:1" { return true }
            let parts = lowered.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count == 4 && parts[0] == "127"
                && parts.allSatisfy { part in UInt8(part).map { _ in true } ?? false }
        }
    }

    public var description: String {
        switch self {
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unix(let path): path.string
        }
    }
}
