/// MPD's tokenizer (util/Tokenizer.cxx) and its checks on a line (client/Process.cxx,
/// command/AllCommands.cxx), byte for byte, so a client sees the answers it would get
/// from MPD.
public enum MPDRequestParser {
    /// Parses one line (without its "\n"). Bytes after a NUL are ignored and trailing
    /// blanks and control characters dropped, as MPD reads lines as C strings.
    public static func parse(_ line: some Collection<UInt8>) throws(MPDError) -> MPDRequest {
        var bytes = Array(line.prefix { $0 != 0 })
        while let last = bytes.last, last <= 0x20 { bytes.removeLast() }
        // MPD's commands all begin with a lower-case letter; anything else is not
        // MPD's protocol (a badly routed HTTP request, say) and MPD hangs up silently.
        guard let first = bytes.first, first >= 0x61 && first <= 0x7A else {
            throw MPDError(.unknown, "malformed command", closing: .withoutReply)
        }
        var tokenizer = Tokenizer(bytes: bytes)
        let name = try tokenizer.nextWord()
        var arguments: [String] = []
        while let argument = try tokenizer.nextParameter() {
            guard arguments.count < maximumArguments else { throw MPDError(.argument, "Too many arguments") }
            arguments.append(argument)
        }
        return MPDRequest(name: name, arguments: arguments)
    }

    /// MPD keeps a command's words in an array of 64 (COMMAND_ARGV_MAX) and refuses the
    /// line once it is full: 63 arguments at most (seen from MPD 0.23).
    public static let maximumArguments = 63
}

private struct Tokenizer {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The command word: a letter, then letters, digits and underscores. A bad word
    /// means the client does not speak MPD's protocol: MPD answers and hangs up.
    mutating func nextWord() throws(MPDError) -> String {
        let start = index
        guard index < bytes.count, isLetter(bytes[index]) else {
            throw MPDError(.unknown, "Letter expected", closing: .afterReply)
        }
        index += 1
        while index < bytes.count, !isBlank(bytes[index]) {
            guard isWordCharacter(bytes[index]) else {
                throw MPDError(.unknown, "Invalid word character", closing: .afterReply)
            }
            index += 1
        }
        let word = text(bytes[start..<index])
        skipBlanks()
        return word
    }

    mutating func nextParameter() throws(MPDError) -> String? {
        guard index < bytes.count else { return nil }
        return bytes[index] == UInt8(ascii: "\"") ? try nextQuoted() : try nextUnquoted()
    }

    private mutating func nextUnquoted() throws(MPDError) -> String {
        let start = index
        while index < bytes.count, !isBlank(bytes[index]) {
            guard isUnquotedCharacter(bytes[index]) else { throw MPDError(.unknown, "Invalid unquoted character") }
            index += 1
        }
        let word = text(bytes[start..<index])
        skipBlanks()
        return word
    }

    /// `"…"` with `\` escaping the character after it (any character: `\n` is `n`).
    private mutating func nextQuoted() throws(MPDError) -> String {
        var value: [UInt8] = []
        index += 1
        while true {
            guard index < bytes.count else { throw MPDError(.unknown, "Missing closing '\"'") }
            var byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { throw MPDError(.unknown, "Missing closing '\"'") }
                byte = bytes[index]
            }
            value.append(byte)
            index += 1
        }
        index += 1
        guard index == bytes.count || isBlank(bytes[index]) else {
            throw MPDError(.unknown, "Space expected after closing '\"'")
        }
        skipBlanks()
        return text(value[...])
    }

    private mutating func skipBlanks() {
        while index < bytes.count, isBlank(bytes[index]) { index += 1 }
    }

    /// Invalid UTF-8 is kept as U+FFFD: MPD passes bytes on, but qplay's strings are
    /// Unicode, and such an argument then simply matches nothing.
    private func text(_ slice: ArraySlice<UInt8>) -> String { String(decoding: slice, as: UTF8.self) }
}

/// MPD's IsWhitespaceNotNull: space and every control character below it, tab included.
func isBlank(_ byte: UInt8) -> Bool { byte <= 0x20 }

private func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

private func isWordCharacter(_ byte: UInt8) -> Bool {
    isLetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "_")
}

private func isUnquotedCharacter(_ byte: UInt8) -> Bool {
    byte > 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'")
}
