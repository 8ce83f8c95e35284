/// A protocol error code (`error.code` on the wire). An open set: a newer daemon may send
/// codes this version does not name, and they still decode.
public struct ErrorCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    /// Malformed request: invalid JSON, missing or wrongly typed arguments.
    public static let badRequest = ErrorCode("bad_request")
    /// `cmd` names no command of this protocol version.
    public static let unknownCommand = ErrorCode("unknown_command")
    /// A query matched no track.
    public static let noMatch = ErrorCode("no_match")
    /// An entry, index, track id or path does not exist.
    public static let notFound = ErrorCode("not_found")
    /// An `add` would make the queue longer than the daemon's `max_queue_length`.
    public static let queueFull = ErrorCode("queue_full")
    /// The request line was longer than 64 KiB; it was discarded.
    public static let lineTooLong = ErrorCode("line_too_long")
    /// The daemon cannot do it now (e.g. the library is not ready, the output failed).
    public static let unavailable = ErrorCode("unavailable")
    /// A bug in the daemon; the message says what failed.
    public static let internalError = ErrorCode("internal_error")
    /// A stored playlist of that name is there already.
    public static let exists = ErrorCode("exists")
}

/// An error response's `error` object: a code for programs and a message for people.
public struct ProtocolError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public static func badRequest(_ message: String) -> ProtocolError { .init(.badRequest, message) }
    public static func unknownCommand(_ message: String) -> ProtocolError {
        .init(.unknownCommand, message)
    }
    public static func noMatch(_ message: String) -> ProtocolError { .init(.noMatch, message) }
    public static func notFound(_ message: String) -> ProtocolError { .init(.notFound, message) }
    public static func exists(_ message: String) -> ProtocolError { .init(.exists, message) }
    public static func queueFull(_ message: String) -> ProtocolError { .init(.queueFull, message) }
    public static func lineTooLong(_ message: String) -> ProtocolError { .init(.lineTooLong, message) }
    public static func unavailable(_ message: String) -> ProtocolError { .init(.unavailable, message) }
    public static func internalError(_ message: String) -> ProtocolError {
        .init(.internalError, message)
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
