/// What a request handler answers: a result for `result`, or an error.
public enum Response: Sendable {
    case success(any ResultPayload)
    case failure(ProtocolError)

    /// `{"ok": true, "result": {}}`.
    public static var empty: Response { .success(EmptyResult()) }

    /// The response line for the request `id`, newline included.
    public func encodedLine(id: RequestID?) -> [UInt8] {
        if let line = fastLine(id: id) { return line }
        // The envelope is put together here too, so the id keeps its exact spelling
        // (JSONEncoder would write a number id as a Double); only the body is
        // JSONEncoder's.
        do {
            switch self {
            case .success(let result):
                return Self.envelope(id: id, ok: true, body: try WireCoding.bytes(result))
            case .failure(let error):
                return Self.envelope(id: id, ok: false, body: try WireCoding.bytes(error))
            }
        } catch {
            // Only a non-conforming value (e.g. NaN in a custom type) gets here.
            return Self.envelope(
                id: id, ok: false,
                body: Array(#"{"code":"internal_error","message":"could not encode a reply"}"#.utf8))
        }
    }

    /// `{"id":…,"ok":true,"result":BODY}` or `{"error":BODY,"id":…,"ok":false}`: keys
    /// in sorted order, as everywhere on the wire.
    private static func envelope(id: RequestID?, ok: Bool, body: [UInt8]) -> [UInt8] {
        var line: [UInt8] = Array("{".utf8)
        if !ok { line += Array(#""error":"#.utf8) + body + Array(",".utf8) }
        line += Array(#""id":"#.utf8) + (id?.jsonBytes ?? Array("null".utf8))
        line += Array((ok ? #","ok":true,"result":"# : #","ok":false"#).utf8)
        if ok { line += body }
        line += Array("}\n".utf8)
        return line
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

extension RequestID {
    /// The id as JSON: numbers exactly as the client wrote them.
    var jsonBytes: [UInt8] {
        var output = JSONOutput(capacity: 32)
        write(to: &output)
        if output.exact { return output.bytes }
        guard case .string(let text) = self, let bytes = try? WireCoding.bytes(text) else {
            return Array("null".utf8)
        }
        return bytes
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
