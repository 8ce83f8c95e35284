#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A request's `id`, echoed unchanged in its response: a number or a string.
public enum RequestID: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A whole number written plainly (no fraction, exponent, `-0` or leading zeros)
    /// that fits 64 bits.
    case integer(Int64)
    /// Any other JSON number, kept as the client spelled it (`1.5`, `1e3`,
    /// `123456789012345678901234567890`) so the response echoes exactly those bytes;
    /// converting it to a Double would answer `1.2345678901234568e+29`.
    case number(String)
    case string(String)

    /// Reads an id with Codable. A number that is not a plain 64-bit integer is only as
    /// exact here as a Double; the daemon reads ids from the request's bytes instead
    /// (`Request.decode`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number("\(value)")
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let value): try container.encode(value)
        case .number(let text): try container.encode(Double(text) ?? 0)
        case .string(let value): try container.encode(value)
        }
    }

    /// The id of a decoded JSON value; nil when it is neither a number nor a string.
    /// `literal` is the number as written in the request, when known.
    init?(_ value: JSONValue, literal: String? = nil) {
        switch value {
        case .integer, .number:
            let text = literal ?? value.numberText ?? ""
            if let whole = Int64(text), "\(whole)" == text {
                self = .integer(whole)
            } else {
                self = .number(text)
            }
        case .string(let text): self = .string(text)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .integer(let value): "\(value)"
        case .number(let text): text
        case .string(let value): "\"\(value)\""
        }
    }
}
