/// Values: strings (basic and literal, on one line or several), arrays and inline
/// tables; numbers, booleans and dates are in TOMLParser+Scalars.
extension TOMLParser {
    mutating func value(depth: Int) throws(TOMLSyntaxError) -> TOMLValue {
        guard depth <= Self.maxDepth else { throw failure("values nest more than \(Self.maxDepth) deep") }
        guard let byte = peek() else { throw failure("expected a value, found the end of the file") }
        switch byte {
        case UInt8(ascii: "\""):
            return .string(try basicString(multiline: startsTriple(byte)))
        case UInt8(ascii: "'"):
            return .string(try literalString(multiline: startsTriple(byte)))
        case UInt8(ascii: "["):
            return try array(depth: depth)
        case UInt8(ascii: "{"):
            return try inlineTable(depth: depth)
        default:
            return try scalar()
        }
    }

    func startsTriple(_ quote: UInt8) -> Bool {
        peek(at: 1) == quote && peek(at: 2) == quote
    }

    /// `"..."` or `"""..."""`, with escapes.
    mutating func basicString(multiline: Bool) throws(TOMLSyntaxError) -> String {
        let start = offset
        offset += multiline ? 3 : 1
        if multiline { skipFirstNewline() }
        var text: [UInt8] = []
        while true {
            guard let byte = peek() else { throw failure("the string is not closed", at: start) }
            switch byte {
            case UInt8(ascii: "\""):
                if !multiline {
                    offset += 1
                    return String(decoding: text, as: UTF8.self)
                }
                if closesTriple(UInt8(ascii: "\""), into: &text) { return String(decoding: text, as: UTF8.self) }
            case UInt8(ascii: "\\"):
                try escape(multiline: multiline, into: &text)
            default:
                try plainByte(byte, multiline: multiline, into: &text)
            }
        }
    }

    /// `'...'` or `'''...'''`: no escapes.
    mutating func literalString(multiline: Bool) throws(TOMLSyntaxError) -> String {
        let start = offset
        offset += multiline ? 3 : 1
        if multiline { skipFirstNewline() }
        var text: [UInt8] = []
        while true {
            guard let byte = peek() else { throw failure("the string is not closed", at: start) }
            if byte == UInt8(ascii: "'") {
                if !multiline {
                    offset += 1
                    return String(decoding: text, as: UTF8.self)
                }
                if closesTriple(UInt8(ascii: "'"), into: &text) { return String(decoding: text, as: UTF8.self) }
            } else {
                try plainByte(byte, multiline: multiline, into: &text)
            }
        }
    }

    /// A line break right after the opening quotes is not part of the string.
    private mutating func skipFirstNewline() {
        if peek() == UInt8(ascii: "\n") {
            offset += 1
        } else if peek() == UInt8(ascii: "\r"), peek(at: 1) == UInt8(ascii: "\n") {
            offset += 2
        }
    }

    /// At a quote in a multi-line string: three close it, and up to two more just before
    /// them are content (`""""` ends with one quote). Otherwise the quote is content.
    private mutating func closesTriple(_ quote: UInt8, into text: inout [UInt8]) -> Bool {
        guard startsTriple(quote) else {
            text.append(quote)
            offset += 1
            return false
        }
        var extra = 0
        while extra < 2, peek(at: 3 + extra) == quote { extra += 1 }
        text += repeatElement(quote, count: extra)
        offset += 3 + extra
        return true
    }

    /// A byte of a string that is neither a quote nor an escape.
    private mutating func plainByte(_ byte: UInt8, multiline: Bool, into text: inout [UInt8]) throws(TOMLSyntaxError) {
        if multiline, byte == UInt8(ascii: "\n") {
            text.append(byte)
            offset += 1
        } else if multiline, byte == UInt8(ascii: "\r"), peek(at: 1) == UInt8(ascii: "\n") {
            text.append(UInt8(ascii: "\n"))
            offset += 2
        } else if isNewline(byte) {
            throw failure(
                multiline ? "a carriage return must be followed by a line feed"
                    : "the string is not closed on its line (write \\n for a line break, or use \"\"\" or ''')")
        } else if Self.isControl(byte) {
            throw failure("a string cannot hold the control character \(describe(byte)); write it as an escape")
        } else {
            text.append(byte)
            offset += 1
        }
    }

    /// After a backslash in a basic string.
    private mutating func escape(multiline: Bool, into text: inout [UInt8]) throws(TOMLSyntaxError) {
        let start = offset
        offset += 1
        guard let byte = peek() else { throw failure("the string is not closed", at: start) }
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "b"): 0x08, UInt8(ascii: "t"): 0x09, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "f"): 0x0C,
            UInt8(ascii: "r"): 0x0D, UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C,
        ]
        if let replacement = simple[byte] {
            text.append(replacement)
            offset += 1
        } else if byte == UInt8(ascii: "u") || byte == UInt8(ascii: "U") {
            try unicodeEscape(digits: byte == UInt8(ascii: "u") ? 4 : 8, from: start, into: &text)
        } else if multiline, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || isNewline(byte) {
            // A line-ending backslash: the line break and the blanks after it go.
            skipBlanks()
            guard isNewline(peek()) else {
                throw failure("only blanks may follow a line-ending backslash", at: offset)
            }
            while let next = peek() {
                if next == UInt8(ascii: " ") || next == UInt8(ascii: "\t") || next == UInt8(ascii: "\n") {
                    offset += 1
                } else if next == UInt8(ascii: "\r"), peek(at: 1) == UInt8(ascii: "\n") {
                    offset += 2
                } else {
                    break
                }
            }
        } else {
            throw failure(
                "unknown escape: a backslash before \(describe(byte)) (known: \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)",
                at: start)
        }
    }

    private mutating func unicodeEscape(digits: Int, from start: Int, into text: inout [UInt8]) throws(TOMLSyntaxError) {
        offset += 1
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let byte = peek(), let digit = Self.hexDigit(byte) else {
                throw failure("\\\(digits == 4 ? "u" : "U") takes \(digits) hexadecimal digits", at: start)
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw failure("\\\(digits == 4 ? "u" : "U") escape of a code point that is not a Unicode scalar value", at: start)
        }
        text += Array(String(scalar).utf8)
    }

    static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `[a, b, ...]`: over several lines if need be, with comments, a trailing comma allowed.
    mutating func array(depth: Int) throws(TOMLSyntaxError) -> TOMLValue {
        let start = offset
        offset += 1
        var values: [TOMLValue] = []
        while true {
            try skipBlanksCommentsAndNewlines()
            if take("]") { return .array(values) }
            values.append(try value(depth: depth + 1))
            try skipBlanksCommentsAndNewlines()
            if take(",") { continue }
            if take("]") { return .array(values) }
            guard let byte = peek() else { throw failure("the array is not closed with ']'", at: start) }
            throw failure("expected ',' or ']' in the array, found \(describe(byte))")
        }
    }

    private mutating func skipBlanksCommentsAndNewlines() throws(TOMLSyntaxError) {
        while true {
            skipBlanks()
            try skipComment()
            if peek() == UInt8(ascii: "\n") {
                offset += 1
            } else if peek() == UInt8(ascii: "\r") {
                guard peek(at: 1) == UInt8(ascii: "\n") else { throw failure("a carriage return must be followed by a line feed") }
                offset += 2
            } else {
                return
            }
        }
    }

    /// `{a = 1, b.c = 2}`: on one line, no trailing comma, complete where it is written.
    mutating func inlineTable(depth: Int) throws(TOMLSyntaxError) -> TOMLValue {
        let start = offset
        offset += 1
        let table = TOMLTableBuilder(origin: .header)
        skipBlanks()
        if take("}") { return .table(table.table) }
        while true {
            skipBlanks()
            try keyValue(into: table, depth: depth + 1)
            skipBlanks()
            if take(",") { continue }
            if take("}") { return .table(table.table) }
            guard let byte = peek() else { throw failure("the inline table is not closed with '}'", at: start) }
            if isNewline(byte) { throw failure("an inline table must be closed on its line with '}'") }
            throw failure("expected ',' or '}' in the inline table, found \(describe(byte))")
        }
    }
}
