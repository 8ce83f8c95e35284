/// A line a client receives: the greeting, a response, or an event.
public enum ServerMessage: Sendable {
    case greeting(Greeting)
    case response(ResponseMessage)
    case event(Event)

    /// Reads one line (without its newline) from the daemon.
    public static func decode(line: [UInt8]) throws(ClientDecodingError) -> ServerMessage {
        let probe: Probe
        // Kept for the result: the line is read once, not again for `result(as:)`.
        let value = JSONInput.value(from: line, complete: true)
        if let quick = value.flatMap(Probe.init(wire:)) {
            probe = quick
        } else {
            do {
                probe = try WireCoding.decode(Probe.self, from: line)
            } catch {
                throw ClientDecodingError(message: "the daemon sent a line that is not a JSON object", line: line)
            }
        }
        if let ok = probe.ok {
            let outcome: Result<Void, ProtocolError>
            if ok {
                outcome = .success(())
            } else {
                outcome = .failure(probe.error ?? ProtocolError(.internalError, "error response without `error`"))
            }
            var response = ResponseMessage(id: probe.id, outcome: outcome, line: line)
            response.value = value
            return .response(response)
        }
        if probe.event != nil {
            do {
                return .event(try WireCoding.decode(Event.self, from: line))
            } catch {
                throw ClientDecodingError(message: "unreadable event: \(error)", line: line)
            }
        }
        if let name = probe.protocol {
            return .greeting(Greeting(protocol: name, version: probe.version ?? "unknown"))
        }
        throw ClientDecodingError(message: "the daemon sent a line that is neither response nor event", line: line)
    }

    private struct Probe: Decodable {
        var `protocol`: String?
        var version: String?
        var id: RequestID?
        var ok: Bool?
        var error: ProtocolError?
        var event: String?

        /// The probe JSONDecoder would read, or nil when unsure (see WireDecodable).
        init?(wire: JSONValue) {
            guard let object = WireObject(wire),
                let name = object.optional("protocol", WireObject.string),
                let version = object.optional("version", WireObject.string),
                let id = object.optional("id", Self.requestID),
                let ok = object.optional("ok", WireObject.bool),
                let error = object.optional("error", ProtocolError.init(wire:)),
                let event = object.optional("event", WireObject.string)
            else { return nil }
            (self.protocol, self.version, self.id, self.ok, self.error, self.event) = (name, version, id, ok, error, event)
        }

        /// Whole numbers and strings; a fraction is left to JSONDecoder's spelling.
        private static func requestID(_ value: JSONValue) -> RequestID? {
            switch value {
            case .integer(let number): .integer(number)
            case .string(let text): .string(text)
            default: nil
            }
        }
    }
}

/// A response as a client sees it, with its line kept so that the result can be decoded
/// into the type the command returns, or passed on unchanged (`qplay --json`).
public struct ResponseMessage: Sendable {
    public var id: RequestID?
    public var outcome: Result<Void, ProtocolError>
    public var line: [UInt8] {
        didSet { value = nil }
    }
    /// `line` as JSONInput read it, when it could; nil: read it when asked.
    var value: JSONValue?

    public init(id: RequestID?, outcome: Result<Void, ProtocolError>, line: [UInt8]) {
        self.id = id
        self.outcome = outcome
        self.line = line
    }

    /// The error of a failed request.
    public var error: ProtocolError? {
        if case .failure(let error) = outcome { return error }
        return nil
    }

    /// The result decoded as `type`; throws the protocol error of a failed request, and
    /// `ClientError.protocolViolation` (saying which field is wrong) for a result this
    /// client cannot read.
    public func result<T: Decodable>(as type: T.Type) throws -> T {
        if case .failure(let error) = outcome { throw error }
        return try decodedResult(as: type)
    }

    /// The same for the types that read themselves without JSONDecoder when they can.
    public func result<T: WireDecodable>(as type: T.Type) throws -> T {
        if case .failure(let error) = outcome { throw error }
        if case .object(let members)? = value ?? JSONInput.value(from: line, complete: true),
            let result = members["result"].flatMap(T.init(wire:))
        {
            return result
        }
        return try decodedResult(as: type)
    }

    private func decodedResult<T: Decodable>(as type: T.Type) throws -> T {
        do {
            return try WireCoding.decode(ResultBox<T>.self, from: line).result
        } catch let error as DecodingError {
            throw ClientError.protocolViolation(Self.describe(error))
        }
    }

    /// A decoding error in one line: the field's path and what was wrong with it.
    static func describe(_ error: DecodingError) -> String {
        func name(_ path: [any CodingKey]) -> String {
            let field = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return field.hasPrefix(".") ? String(field.dropFirst()) : field
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "`\(name(context.codingPath + [key]))` is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let field = name(context.codingPath)
            return field.isEmpty ? context.debugDescription : "`\(field)`: \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// The bytes of `result` exactly as the daemon sent them.
    public var rawResult: ArraySlice<UInt8>? {
        JSONSpan.member("result", of: line).map { line[$0] }
    }

    private struct ResultBox<T: Decodable>: Decodable { var result: T }
}

/// A line from the daemon that this client cannot read.
public struct ClientDecodingError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var line: [UInt8]
    public var description: String { message }
}
