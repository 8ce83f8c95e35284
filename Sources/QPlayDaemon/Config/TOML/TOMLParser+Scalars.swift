/// Booleans, integers, floats and dates: a run of the characters they are written with,
/// then checked against TOML 1.0's grammar for each.
extension TOMLParser {
    mutating func scalar() throws(TOMLSyntaxError) -> TOMLValue {
        let start = offset
        while let byte = peek(), Self.isScalarByte(byte) { offset += 1 }
        // A date and a time may be separated by a space: `1979-05-27 07:32:00`.
        if offset - start == 10, peek() == UInt8(ascii: " "), Self.isDigit(peek(at: 1)), Self.isDigit(peek(at: 2)),
            peek(at: 3) == UInt8(ascii: ":")
        {
            offset += 1
            while let byte = peek(), Self.isScalarByte(byte) { offset += 1 }
        }
        let token = Array(bytes[start..<offset])
        guard !token.isEmpty else {
            let found = peek().map(describe) ?? "the end of the file"
            throw failure("expected a value, found \(found)")
        }
        let text = String(decoding: token, as: UTF8.self)
        func invalid(_ kind: String) -> TOMLSyntaxError {
            failure("'\(text)' is not a valid \(kind)", at: start)
        }
        switch text {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        default: break
        }
        let startsWithYear = token.count >= 10 && token[4] == UInt8(ascii: "-") && token[..<4].allSatisfy { Self.isDigit($0) }
        if token.contains(UInt8(ascii: ":")) || startsWithYear {
            guard Self.isDateTime(token) else { throw invalid("date or time (1979-05-27, 07:32:00, 1979-05-27T07:32:00Z)") }
            return .dateTime(text)
        }
        let radixes: [UInt8: Int] = [UInt8(ascii: "x"): 16, UInt8(ascii: "o"): 8, UInt8(ascii: "b"): 2]
        if token.count > 2, token[0] == UInt8(ascii: "0"), let radix = radixes[token[1]] {
            guard let digits = Self.digits(token[2...], radix: radix, leadingZeros: true),
                let number = Int(String(decoding: digits, as: UTF8.self), radix: radix)
            else { throw invalid("integer (or it is past the 64-bit range)") }
            return .integer(number)
        }
        guard let number = Self.decimal(token) else {
            if token.allSatisfy({ Self.isBareKeyByte($0) && !Self.isDigit($0) && $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "_") }) {
                throw failure("expected a value, found '\(text)' (a string is written in quotes)", at: start)
            }
            throw invalid("number")
        }
        if let number { return number }
        throw failure("'\(text)' is past the 64-bit integer range", at: start)
    }

    static func isScalarByte(_ byte: UInt8) -> Bool {
        isBareKeyByte(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
    }

    static func isDigit(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Digits of `radix` with single underscores between them; the digits alone, or nil
    /// when the run breaks the rule anywhere (so its length tells whether all of it matched).
    static func digits(_ run: ArraySlice<UInt8>, radix: Int, leadingZeros: Bool) -> [UInt8]? {
        var result: [UInt8] = []
        var afterUnderscore = false
        for byte in run {
            if byte == UInt8(ascii: "_") {
                guard !result.isEmpty, !afterUnderscore else { return nil }
                afterUnderscore = true
                continue
            }
            guard let digit = hexDigit(byte), Int(digit) < radix else { return nil }
            result.append(byte)
            afterUnderscore = false
        }
        guard !result.isEmpty, !afterUnderscore else { return nil }
        if !leadingZeros, result.count > 1, result[0] == UInt8(ascii: "0") { return nil }
        return result
    }

    /// A decimal integer or a float: `.some(nil)` for an integer past 64 bits, nil for
    /// anything that is not one.
    static func decimal(_ token: [UInt8]) -> TOMLValue?? {
        var index = 0
        var cleaned: [UInt8] = []
        if token[0] == UInt8(ascii: "+") || token[0] == UInt8(ascii: "-") {
            if token[0] == UInt8(ascii: "-") { cleaned.append(token[0]) }
            index = 1
        }
        // The run of digits and underscores from `index`, checked.
        func part(leadingZeros: Bool) -> [UInt8]? {
            var end = index
            while end < token.count, isDigit(token[end]) || token[end] == UInt8(ascii: "_") { end += 1 }
            guard let digits = digits(token[index..<end], radix: 10, leadingZeros: leadingZeros) else { return nil }
            index = end
            return digits
        }
        guard let integer = part(leadingZeros: false) else { return nil }
        cleaned += integer
        var isFloat = false
        if index < token.count, token[index] == UInt8(ascii: ".") {
            index += 1
            guard let fraction = part(leadingZeros: true) else { return nil }
            cleaned += [UInt8(ascii: ".")] + fraction
            isFloat = true
        }
        if index < token.count, token[index] == UInt8(ascii: "e") || token[index] == UInt8(ascii: "E") {
            index += 1
            cleaned.append(UInt8(ascii: "e"))
            if index < token.count, token[index] == UInt8(ascii: "+") || token[index] == UInt8(ascii: "-") {
                cleaned.append(token[index])
                index += 1
            }
            guard let exponent = part(leadingZeros: true) else { return nil }
            cleaned += exponent
            isFloat = true
        }
        guard index == token.count else { return nil }
        let text = String(decoding: cleaned, as: UTF8.self)
        if isFloat { return Double(text).map { .float($0) } }
        return .some(Int(text).map { .integer($0) })
    }

    /// TOML 1.0's dates and times: `1979-05-27`, `07:32:00(.999)`, and the two joined by
    /// `T`, `t` or a space, with `Z` or `±HH:MM` for an offset date-time.
    static func isDateTime(_ token: [UInt8]) -> Bool {
        var index = 0
        func number(_ count: Int, in range: ClosedRange<Int>) -> Int? {
            guard index + count <= token.count, token[index..<index + count].allSatisfy({ isDigit($0) }) else { return nil }
            let value = token[index..<index + count].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            index += count
            return range.contains(value) ? value : nil
        }
        func take(_ character: Unicode.Scalar) -> Bool {
            guard index < token.count, token[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }
        func time() -> Bool {
            guard number(2, in: 0...23) != nil, take(":"), number(2, in: 0...59) != nil, take(":"),
                number(2, in: 0...60) != nil
            else { return false }
            if take(".") {
                let start = index
                while index < token.count, isDigit(token[index]) { index += 1 }
                return index > start
            }
            return true
        }
        if token.count >= 3, token[2] == UInt8(ascii: ":") { return time() && index == token.count }
        guard let year = number(4, in: 0...9999), take("-"), let month = number(2, in: 1...12), take("-") else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard number(2, in: 1...days) != nil else { return false }
        if index == token.count { return true }
        guard take("T") || take("t") || take(" "), time() else { return false }
        if index == token.count || take("Z") || take("z") { return index == token.count }
        guard take("+") || take("-"), number(2, in: 0...23) != nil, take(":"), number(2, in: 0...59) != nil else { return false }
        return index == token.count
    }
}
