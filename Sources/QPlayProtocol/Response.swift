/// What a request handler answers: a result for `result`, or an error.
public enum Response: Sendable {
    case success(any ResultPayload)
    case failure(ProtocolError)

    /// `{"ok": true, "result": {}}`.
    public static var empty: Response { .success(EmptyResult()) }

    /// The response line for the request `id`, newline included.
    public func encodedLine(id: RequestID?) -> [UInt8] {
        if let line = fastLine(id: id) { return line }
        return switch self {
        case .success(let result): WireCoding.line(SuccessEnvelope(id: id, result: result))
        case .failure(let error): WireCoding.line(FailureEnvelope(id: id, error: error))
        }
    }
}

extension Response {
    /// The envelope written by hand when the result type can be (see JSONOutput).
    private func fastLine(id: RequestID?) -> [UInt8]? {
        switch self {
        case .success(let result):
            guard let result = result as? any WireEncodable else { return nil }
            return WireCoding.fastLine { output in
                output.raw("{")
                output.key("id"); output.requestID(id); output.comma()
                output.key("ok"); output.bool(true); output.comma()
                output.key("result"); result.write(to: &output)
                output.raw("}")
            }
        case .failure(let error):
            return WireCoding.fastLine { output in
                output.raw("{")
                output.key("error"); error.write(to: &output); output.comma()
                output.key("id"); output.requestID(id); output.comma()
                output.key("ok"); output.bool(false)
                output.raw("}")
            }
        }
    }
}

private struct SuccessEnvelope: Encodable {
    var id: RequestID?
    var result: any ResultPayload

    enum CodingKeys: String, CodingKey { case id, ok, result }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(true, forKey: .ok)
        try container.encode(result, forKey: .result)
    }
}

private struct FailureEnvelope: Encodable {
    var id: RequestID?
    var error: ProtocolError

    enum CodingKeys: String, CodingKey { case id, ok, error }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(false, forKey: .ok)
        try container.encode(error, forKey: .error)
    }
}

extension Event {
    /// The event as one pushed line, newline included.
    public func encodedLine() -> [UInt8] { WireCoding.line(self) }
}

extension Greeting {
    /// The greeting as one line, newline included.
    public func encodedLine() -> [UInt8] { WireCoding.line(self) }
}
