import QPlayProtocol

/// Names one client connection for as long as it is open; never reused by a server.
public struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public var description: String { "#\(rawValue)" }
}

/// What the socket server calls for every request except `subscribe`, which the server
/// answers itself. Requests of one connection arrive one at a time, in order (the next
/// one is handed over after the previous response is written); requests of different
/// connections may run concurrently.
public protocol RequestHandler: Sendable {
    func handle(_ request: Request, connection: ConnectionID) async -> Response
    /// The client went away (after its last request was handled). E.g. to end a button
    /// that a vanished client pressed and will never release.
    func connectionClosed(_ connection: ConnectionID) async
}

extension RequestHandler {
    public func connectionClosed(_ connection: ConnectionID) async {}
}
