#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// JSON encoding as the protocol writes it: compact, keys sorted, slashes unescaped,
/// UTF-8 as is.
public enum WireCoding {
    /// A value as one JSON line, newline included.
    public static func line(_ value: some Encodable) -> [UInt8] {
        if let value = value as? any WireEncodable, let line = fastLine(value.write) {
            return line
        }
        do {
            var bytes = try bytes(value)
            bytes.append(UInt8(ascii: "\n"))
            return bytes
        } catch {
            // Only a non-conforming value (e.g. NaN in a custom type) gets here.
            return Array(#"{"id":null,"ok":false,"error":{"code":"internal_error","message":"could not encode a reply"}}"#.utf8) + [10]
        }
    }

    /// The line the hand-written encoder writes, or nil when only JSONEncoder spells
    /// the value for sure.
    static func fastLine(_ write: (inout JSONOutput) -> Void) -> [UInt8]? {
        var output = JSONOutput()
        write(&output)
        guard output.exact else { return nil }
        output.bytes.append(UInt8(ascii: "\n"))
        return output.bytes
    }

    /// A value as compact JSON, no newline. Keys are sorted: the encoder would otherwise
    /// write them in hash order, different on every run.
    public static func bytes(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    /// A value decoded from JSON bytes.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>) throws -> T {
        try JSONDecoder().decode(type, from: Data(bytes))
    }
}
