/// A fast reader for the JSON that requests almost always are: ASCII strings without
/// escapes, whole numbers, literals, objects and lists. It gives up (nil) on anything
/// else — escapes, non-ASCII bytes, fractions, exponents, duplicate keys, deep
/// nesting, malformed input — and the caller then reads the line with JSONDecoder, so
/// results and error messages stay exactly as before. On the subset it accepts, both
/// readers produce the same `JSONValue`.
struct JSONInput {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    static func value(from line: some Collection<UInt8>) -> JSONValue? {
        let parse = { (buffer: UnsafeBufferPointer<UInt8>) -> JSONValue? in
            var input = JSONInput(buffer)
            guard let value = input.value() else { return nil }
            input.skipWhitespace()
            return input.position == buffer.count ? value : nil
        }
        if let result = line.withContiguousStorageIfAvailable(parse) { return result }
        return Array(line).withUnsafeBufferPointer(parse)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func value() -> JSONValue? {
        skipWhitespace()
        guard position < bytes.count else { return nil }
        switch bytes[position] {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return integer()
        default: return nil
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { return nil }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] {
            return nil
        }
        position += count
        return value
    }

    /// A whole number of at most 18 digits, no leading zeros, not `-0`.
    private mutating func integer() -> JSONValue? {
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        let start = position
        var value: Int64 = 0
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            // More than 18 digits may not fit: JSONDecoder decides those.
            guard position - start < 18 else { return nil }
            value = value * 10 + Int64(bytes[position] - UInt8(ascii: "0"))
            position += 1
        }
        let digits = position - start
        guard digits > 0, digits <= 18, !(digits > 1 && bytes[start] == UInt8(ascii: "0")) else { return nil }
        if position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
            default: break
            }
        }
        if negative && value == 0 { return nil }
        return .integer(negative ? -value : value)
    }

    /// A string of printable ASCII without escapes.
    private mutating func string() -> String? {
        position += 1
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                position += 1
                return text
            }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            position += 1
        }
        return nil
    }

    private mutating func array() -> JSONValue? {
        guard depth < 32 else { return nil }
        depth += 1
        defer { depth -= 1 }
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            guard let element = value() else { return nil }
            elements.append(element)
            skipWhitespace()
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return .array(elements)
            default: return nil
            }
        }
    }

    private mutating func object() -> JSONValue? {
        guard depth < 32 else { return nil }
        depth += 1
        defer { depth -= 1 }
        position += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), let key = string() else { return nil }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
            position += 1
            guard let member = value(), members.updateValue(member, forKey: key) == nil else { return nil }
            skipWhitespace()
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return .object(members)
            default: return nil
            }
        }
    }
}
