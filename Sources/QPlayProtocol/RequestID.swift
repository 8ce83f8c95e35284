#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A request's `id`, echoed unchanged in its response: a number or a string.
public enum RequestID: Sendable, Hashable, Codable, CustomStringConvertible {
    case integer(Int64)
    case number(Double)
    case string(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }

    /// The id from a decoded JSON value; nil when it is neither a number nor a string.
    init?(_ value: JSONValue) {
        switch value {
        case .integer(let number): self = .integer(number)
        case .number(let number): self = .number(number)
        case .string(let text): self = .string(text)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .integer(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        }
    }
}
