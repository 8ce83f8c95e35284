/// MPD's filter expression syntax (song/Filter.cxx), ported as MPD reads it so the same
/// expressions pass and fail with the same messages:
///
///     (TAG == 'VALUE')   (TAG != "VALUE")   (TAG contains 'V')   (TAG !contains 'V')
///     (TAG starts_with 'V')   (TAG =~ 'RE')   (TAG !~ 'RE')   (base 'DIR')
///     (!EXPRESSION)   (EXPRESSION AND EXPRESSION …)
///
/// TAG is a tag name (any case), `any` or `file`. Values are in single or double quotes
/// with `\` escaping the next character. `starts_with` is MPD 0.24's; 0.23 clients
/// never send it, newer ones may.
struct MPDFilterExpression {
    private let bytes: [UInt8]
    private var index = 0

    /// MPD's buffer for a quoted value: longer values are refused.
    static let maximumValueLength = 4095

    /// Parses one argument that starts with "(": the whole argument must be one
    /// expression.
    static func parse(_ argument: String) throws(MPDError) -> MPDFilter {
        var parser = MPDFilterExpression(bytes: Array(argument.utf8.prefix { $0 != 0 }))
        let filter = try parser.expression()
        guard parser.index == parser.bytes.count else { throw failure("Unparsed garbage after expression") }
        return filter
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    private mutating func skipBlanks() {
        while let byte = current, byte != 0, byte <= 0x20 { index += 1 }
    }

    /// At "(". Mirrors MPD's recursion, including where it does and does not skip blanks
    /// after a closing parenthesis.
    private mutating func expression() throws(MPDError) -> MPDFilter {
        index += 1
        skipBlanks()
        if current == UInt8(ascii: "(") {
            let first = try expression()
            if current == UInt8(ascii: ")") {
                index += 1
                return first
            }
            var items = [first]
            while true {
                guard try word() == "AND" else { throw Self.failure("'AND' expected") }
                items.append(try expression())
                if current == UInt8(ascii: ")") {
                    index += 1
                    return .and(items)
                }
            }
        }
        if current == UInt8(ascii: "!") {
            index += 1
            skipBlanks()
            guard current == UInt8(ascii: "(") else { throw Self.failure("'(' expected") }
            let inner = try expression()
            try closingParenthesis()
            return .not(inner)
        }
        let name = try word()
        let subject: MPDFilterSubject
        switch name {
        case "base":
            let value = try quoted()
            try closingParenthesis()
            return .compare(.base, .equals, value)
        case let other:
            subject = try Self.subject(named: other, message: "Unknown filter type: \(other)")
        }
        let filter = try comparison(subject)
        try closingParenthesis()
        return filter
    }

    private mutating func comparison(_ subject: MPDFilterSubject) throws(MPDError) -> MPDFilter {
        if skipWord("contains ") { return .compare(subject, .contains, try spacedQuoted()) }
        if skipWord("!contains ") { return .not(.compare(subject, .contains, try spacedQuoted())) }
        if skipWord("starts_with ") { return .compare(subject, .startsWith, try spacedQuoted()) }
        let operation: MPDFilterOperator
        switch (current, peek(1)) {
        case (UInt8(ascii: "="), UInt8(ascii: "~")): operation = .regex
        case (UInt8(ascii: "!"), UInt8(ascii: "~")): operation = .notRegex
        case (UInt8(ascii: "="), UInt8(ascii: "=")): operation = .equals
        case (UInt8(ascii: "!"), UInt8(ascii: "=")): operation = .notEquals
        default: throw Self.failure("'==' or '!=' expected")
        }
        index += 2
        skipBlanks()
        return .compare(subject, operation, try quoted())
    }

    private mutating func spacedQuoted() throws(MPDError) -> String {
        skipBlanks()
        return try quoted()
    }

    /// A word operator, matched without regard to ASCII case, with the blank after it.
    private mutating func skipWord(_ word: String) -> Bool {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count else { return false }
        for (offset, byte) in expected.enumerated() where asciiLower(bytes[index + offset]) != byte {
            return false
        }
        index += expected.count
        return true
    }

    /// A tag-name word: letters, `_` and `-`.
    private mutating func word() throws(MPDError) -> String {
        let start = index
        while let byte = current, isLetterByte(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") {
            index += 1
        }
        guard index > start else { throw Self.failure("Word expected") }
        let word = String(decoding: bytes[start..<index], as: UTF8.self)
        skipBlanks()
        return word
    }

    private mutating func quoted() throws(MPDError) -> String {
        guard let quote = current, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw Self.failure("Quoted string expected")
        }
        index += 1
        var value: [UInt8] = []
        while current != quote {
            if current == UInt8(ascii: "\\") { index += 1 }
            guard let byte = current, byte != 0 else { throw Self.failure("Closing quote not found") }
            value.append(byte)
            index += 1
            guard value.count <= Self.maximumValueLength else { throw Self.failure("Quoted value is too long") }
        }
        index += 1
        skipBlanks()
        return String(decoding: value, as: UTF8.self)
    }

    private mutating func closingParenthesis() throws(MPDError) {
        guard current == UInt8(ascii: ")") else { throw Self.failure("')' expected") }
        index += 1
        skipBlanks()
    }

    /// `file` (or MPD's older `filename`) and `any` in any case, or a tag name.
    static func subject(named name: String, message: String) throws(MPDError) -> MPDFilterSubject {
        switch asciiLowercased(name) {
        case "file", "filename": return .file
        case "any": return .any
        default:
            guard let tag = MPDTag.named(name) else { throw failure(message) }
            return .tag(tag)
        }
    }

    static func failure(_ message: String) -> MPDError { MPDError(.argument, message) }
}

private func asciiLower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

private func isLetterByte(_ byte: UInt8) -> Bool { asciiLower(byte) >= 0x61 && asciiLower(byte) <= 0x7A }
