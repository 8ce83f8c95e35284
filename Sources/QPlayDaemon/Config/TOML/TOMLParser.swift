/// A strict TOML 1.0 parser for the config file: every document TOML 1.0 allows reads,
/// everything else is a `TOMLSyntaxError` at the line and column where it goes wrong.
/// qplay's own because the C++ parser it replaces (toml++, through TOMLKit) aborted the
/// daemon on some invalid files (`[&]`, `key = [1, }]`) instead of reporting them, and a
/// config file is something the user types by hand. It works on the UTF-8 bytes; the
/// reader has already checked they are valid UTF-8.
struct TOMLParser {
    /// How deep keys and values may nest: far more than any real document, and little
    /// enough that a hostile file cannot exhaust the stack through the recursion.
    static let maxDepth = 64

    let bytes: [UInt8]
    var offset = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    static func parse(_ text: String) throws(TOMLSyntaxError) -> TOMLTable {
        var parser = TOMLParser(text)
        return try parser.document()
    }

    // MARK: Document structure

    mutating func document() throws(TOMLSyntaxError) -> TOMLTable {
        let root = TOMLTableBuilder(origin: .header)
        var current = root
        while true {
            skipBlanks()
            guard let byte = peek() else { break }
            switch byte {
            case UInt8(ascii: "#"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                break
            case UInt8(ascii: "["):
                current = try header(in: root)
            default:
                try keyValue(into: current)
            }
            try endOfLine()
        }
        return root.table
    }

    /// `[a.b]` or `[[a.b]]`: the table the following lines fill.
    mutating func header(in root: TOMLTableBuilder) throws(TOMLSyntaxError) -> TOMLTableBuilder {
        offset += 1
        let isArray = peek() == UInt8(ascii: "[")
        if isArray { offset += 1 }
        skipBlanks()
        let start = offset
        let path = try key()
        skipBlanks()
        guard take("]") else { throw failure(isArray ? "expected ']]' to close the table header" : "expected ']' to close the table header") }
        if isArray, !take("]") { throw failure("expected ']]' to close the array of tables header") }
        do {
            var table = root
            for part in path.dropLast() { table = try table.descend(into: part, dotted: false) }
            return isArray ? try table.appendTable(path[path.count - 1]) : try table.defineTable(path[path.count - 1])
        } catch {
            throw failure(error.reason, at: start)
        }
    }

    /// `key = value` into `table`. Dotted keys make (or go into) tables defined by them.
    mutating func keyValue(into table: TOMLTableBuilder, depth: Int = 0) throws(TOMLSyntaxError) {
        let start = offset
        let path = try key()
        skipBlanks()
        guard take("=") else {
            throw failure(peek() == nil || isNewline(peek()) ? "expected '=' and a value after the key" : "expected '=' after the key")
        }
        skipBlanks()
        let parsed = try value(depth: depth + path.count)
        do {
            var target = table
            for part in path.dropLast() { target = try target.descend(into: part, dotted: true) }
            try target.setValue(path[path.count - 1], parsed)
        } catch {
            throw failure(error.reason, at: start)
        }
    }

    /// A key: bare (`A-Za-z0-9_-`) or quoted parts joined by dots, blanks allowed around the dots.
    mutating func key() throws(TOMLSyntaxError) -> [String] {
        var parts: [String] = []
        while true {
            guard parts.count < Self.maxDepth else { throw failure("the key has more than \(Self.maxDepth) parts") }
            switch peek() {
            case UInt8(ascii: "\""):
                parts.append(try basicString(multiline: false))
            case UInt8(ascii: "'"):
                parts.append(try literalString(multiline: false))
            case let byte? where Self.isBareKeyByte(byte):
                let start = offset
                while let next = peek(), Self.isBareKeyByte(next) { offset += 1 }
                parts.append(String(decoding: bytes[start..<offset], as: UTF8.self))
            case nil:
                throw failure("expected a key, found the end of the file")
            case let byte?:
                throw failure("expected a key, found \(describe(byte)) (a key is letters, digits, '_' and '-', or quoted)")
            }
            skipBlanks()
            guard take(".") else { return parts }
            skipBlanks()
        }
    }

    static func isBareKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    /// After a key/value line or a header: blanks, an optional comment, then the end of
    /// the line or of the file.
    mutating func endOfLine() throws(TOMLSyntaxError) {
        skipBlanks()
        try skipComment()
        guard let byte = peek() else { return }
        if byte == UInt8(ascii: "\n") {
            offset += 1
        } else if byte == UInt8(ascii: "\r"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "\n") {
            offset += 2
        } else if byte == UInt8(ascii: "\r") {
            throw failure("a carriage return must be followed by a line feed")
        } else {
            throw failure("expected the end of the line, found \(describe(byte))")
        }
    }

    /// `# ...` up to the end of the line; tabs are the only control characters allowed.
    mutating func skipComment() throws(TOMLSyntaxError) {
        guard take("#") else { return }
        while let byte = peek(), byte != UInt8(ascii: "\n") {
            if byte == UInt8(ascii: "\r"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "\n") { return }
            if Self.isControl(byte) { throw failure("a comment cannot hold the control character \(describe(byte))") }
            offset += 1
        }
    }

    // MARK: Reading bytes

    func peek() -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    func peek(at distance: Int) -> UInt8? {
        offset + distance < bytes.count ? bytes[offset + distance] : nil
    }

    /// Consumes `character` when it is next.
    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard peek() == UInt8(ascii: character) else { return false }
        offset += 1
        return true
    }

    /// Spaces and tabs.
    mutating func skipBlanks() {
        while let byte = peek(), byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { offset += 1 }
    }

    func isNewline(_ byte: UInt8?) -> Bool {
        byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    /// The control characters TOML allows nowhere but as escapes (tab is allowed).
    static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F
    }

    func describe(_ byte: UInt8) -> String {
        if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { return "the end of the line" }
        if byte < 0x20 || byte == 0x7F {
            let hex = String(byte, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        if byte >= 0x80 {
            // The whole character, for the message.
            var end = offset + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            return "'" + String(decoding: bytes[offset..<end], as: UTF8.self) + "'"
        }
        return "'" + String(UnicodeScalar(byte)) + "'"
    }

    /// The error at `at` (default: the current byte), with its line and column.
    func failure(_ reason: String, at position: Int? = nil) -> TOMLSyntaxError {
        let end = min(position ?? offset, bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        let column = bytes[lineStart..<end].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        return TOMLSyntaxError(line: line, column: column, reason: reason)
    }
}
