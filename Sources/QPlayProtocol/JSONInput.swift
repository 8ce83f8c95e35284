/// A fast reader for the JSON that requests almost always are: ASCII strings without
/// escapes, whole numbers, literals, objects and lists. It gives up (nil) on anything
/// else — escapes, non-ASCII bytes, fractions, exponents, duplicate keys, deep
/// nesting, malformed input — and the caller then reads the line with JSONDecoder, so
/// results and error messages stay exactly as before. On the subset it accepts, both
/// readers produce the same `JSONValue`.
///
/// `complete` widens the subset to what the daemon's lines hold — escapes, UTF-8 text,
/// fractions and exponents — for the client, whose every run would otherwise pay for
/// JSONDecoder's first use (generic metadata, conformance lookups): most of a
/// `qplay status` run's own CPU time.
struct JSONInput {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let complete: Bool
    private var position = 0
    private var depth = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>, complete: Bool) {
        self.bytes = bytes
        self.complete = complete
    }

    static func value(from line: some Collection<UInt8>, complete: Bool = false) -> JSONValue? {
        let parse = { (buffer: UnsafeBufferPointer<UInt8>) -> JSONValue? in
            var input = JSONInput(buffer, complete: complete)
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
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                return complete ? fraction(from: negative ? start - 1 : start) : nil
            default: break
            }
        }
        if negative && value == 0 { return nil }
        return .integer(negative ? -value : value)
    }

    /// The rest of a number with a fraction or an exponent (JSON's grammar), as a Double.
    private mutating func fraction(from start: Int) -> JSONValue? {
        func digits() -> Bool {
            let first = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                position += 1
            }
            return position > first
        }
        if bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() else { return nil }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits() else { return nil }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return nil }
        return .number(value)
    }

    /// A string of printable ASCII without escapes (`complete`: any JSON string).
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
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else {
                return complete ? escapedString(from: start) : nil
            }
            position += 1
        }
        return nil
    }

    /// A string with escapes or non-ASCII text, from its first byte after the quote;
    /// nil for bytes that are not UTF-8, control characters and lone surrogates.
    private mutating func escapedString(from start: Int) -> String? {
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { return nil }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    utf8.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
            case 0..<0x20: return nil
            default: utf8.append(byte)
            }
        }
        return nil
    }

    /// The scalar of a `\uXXXX` escape (after the `u`), a surrogate pair taken whole.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let unit = hexUnit() else { return nil }
        switch unit {
        case 0xD800..<0xDC00:
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                bytes[position + 1] == UInt8(ascii: "u")
            else { return nil }
            position += 2
            guard let low = hexUnit(), (0xDC00..<0xE000).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
        case 0xDC00..<0xE000: return nil
        default: return Unicode.Scalar(unit)
        }
    }

    private mutating func hexUnit() -> UInt32? {
        guard position + 4 <= bytes.count else { return nil }
        var unit: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            unit = unit << 4 | UInt32(digit)
            position += 1
        }
        return unit
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

extension JSONInput {
    /// Whether a comma outside strings is followed (after whitespace) by `}` or `]`, as in
    /// `{"id":1,"cmd":"ping",}`. JSON has no trailing commas but JSONDecoder takes them;
    /// the request reader refuses them after JSONDecoder read a line (the fast reader
    /// gives up on them by itself), so every reader of the protocol agrees on what JSON is.
    static func hasTrailingComma(_ bytes: [UInt8]) -> Bool {
        var inString = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: ",") {
                var next = index + 1
                while next < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
                if next < bytes.count, bytes[next] == UInt8(ascii: "}") || bytes[next] == UInt8(ascii: "]") {
                    return true
                }
            }
            index += 1
        }
        return false
    }
}
