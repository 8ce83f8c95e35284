import QPlayProtocol

/// What one message from a web remote's WebSocket asks for, read from its bytes alone:
/// the part of `WebSocketSessions` that reads client data, apart from the streams, so
/// the `web-socket` fuzz target drives it. A message is one protocol request line
/// without its newline (text or binary alike).
enum WebSocketInbound: Equatable {
    /// Blanks only: nothing to answer, as the socket skips an empty line.
    case nothing
    /// Not a request: the error line to send back.
    case reply([UInt8])
    /// `subscribe`: answered `{}` by the session itself.
    case subscribe(id: RequestID?, kinds: Set<EventKind>)
    /// Anything else, for the daemon's `RequestHandler`.
    case request(Request)

    init(_ bytes: [UInt8]) {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }) {
            self = .nothing
            return
        }
        switch Request.decode(line: bytes) {
        case .failure(let failure):
            self = .reply(Response.failure(failure.error).encodedLine(id: failure.id))
        case .success(let request):
            if case .subscribe(let kinds) = request.command {
                self = .subscribe(id: request.id, kinds: kinds)
            } else {
                self = .request(request)
            }
        }
    }

    /// A protocol line as a WebSocket message: without its newline.
    static func message(_ line: [UInt8]) -> [UInt8] {
        line.last == 0x0A ? Array(line.dropLast()) : line
    }
}
