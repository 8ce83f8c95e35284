#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One request line: `{"id": 1, "cmd": "seek", "args": {"delta": 10}}`.
public struct Request: Sendable, Hashable {
    /// Echoed in the response. A request without `id` is answered with `"id": null`.
    public var id: RequestID?
    public var command: Command

    public init(id: RequestID?, _ command: Command) {
        self.id = id
        self.command = command
    }

    /// The request as one JSON line, newline included.
    public func encodedLine() -> [UInt8] {
        var object: [String: JSONValue] = ["cmd": .string(command.name)]
        switch id {
        case .integer(let value)?: object["id"] = .integer(value)
        case .number(let text)?: object["id"] = .number(Double(text) ?? 0)
        case .string(let value)?: object["id"] = .string(value)
        case nil: break
        }
        if let args = command.arguments { object["args"] = .object(args) }
        // Written by hand when it can be: JSONEncoder's first use is most of a short
        // client run's CPU time.
        let value = JSONValue.object(object)
        return WireCoding.fastLine(value.write) ?? WireCoding.line(value)
    }

    /// Reads a request line (without its newline). On failure, the error carries the id
    /// when the line had a usable one, so the error response can echo it.
    public static func decode(line: some Collection<UInt8>) -> Result<Request, RequestDecodingError> {
        decode(line: line, quickly: true)
    }

    /// `quickly` false skips the fast reader (JSONInput), for tests that check both
    /// readers come to the same request or the same error.
    static func decode(line: some Collection<UInt8>, quickly: Bool) -> Result<Request, RequestDecodingError> {
        let json: JSONValue
        // Set when JSONDecoder read the line: the bytes for the id's exact spelling.
        var decodedBytes: [UInt8]?
        if quickly, let quick = JSONInput.value(from: line) {
            json = quick
        } else {
            let bytes = Array(line)
            do {
                json = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
            } catch {
                return .failure(.init(id: nil, error: .badRequest("invalid JSON: the line is not one JSON object")))
            }
            if JSONInput.hasTrailingComma(bytes) {
                return .failure(
                    .init(id: nil, error: .badRequest("invalid JSON: a comma before a closing `}` or `]`")))
            }
            // JSONDecoder keeps one of two equal keys without a word; a request that says
            // `cmd` twice is ambiguous, so it is refused.
            if let duplicate = JSONDuplicateKey.first(in: bytes) {
                return .failure(.init(id: nil, error: .badRequest("\(duplicate); a key may appear only once")))
            }
            decodedBytes = bytes
        }
        guard case .object(let fields) = json else {
            return .failure(
                .init(id: nil, error: .badRequest("a request must be a JSON object, got \(json.typeDescription)")))
        }
        var id: RequestID?
        if let rawID = fields["id"], rawID != .null {
            // The id's bytes as written: a number echoes in the client's spelling.
            let literal = decodedBytes.flatMap { bytes in
                JSONSpan.member("id", of: bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
            }
            guard let parsed = RequestID(rawID, literal: literal) else {
                return .failure(
                    .init(id: nil, error: .badRequest("`id` must be a number or a string, got \(rawID.typeDescription)")))
            }
            if case .string(let text) = parsed, text.utf8.contains(0) {
                return .failure(
                    .init(id: nil, error: .badRequest("`id` must not contain a NUL character (\\u0000)")))
            }
            id = parsed
        }
        for key in fields.keys.sorted() where !["id", "cmd", "args"].contains(key) {
            return .failure(.init(id: id, error: .badRequest("unknown request field `\(key)` (fields: id, cmd, args)")))
        }
        guard case .string(let name)? = fields["cmd"] else {
            return .failure(.init(id: id, error: .badRequest("a request needs `cmd`, the command name as a string")))
        }
        do {
            return .success(Request(id: id, try Command.parse(name: name, args: fields["args"])))
        } catch {
            return .failure(.init(id: id, error: error))
        }
    }
}

/// Why a request line could not be read, with the id to answer to when there was one.
public struct RequestDecodingError: Error, Sendable, Hashable {
    public var id: RequestID?
    public var error: ProtocolError

    public init(id: RequestID?, error: ProtocolError) {
        self.id = id
        self.error = error
    }
}
