/// Text as radio servers and playlist files send it: UTF-8 when the bytes are valid
/// UTF-8, otherwise Latin-1 (each byte its own character) — the encoding of older
/// SHOUTcast servers and of playlists saved by Windows players, which never fails.
enum TextBytes {
    static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var text = ""
        text.unicodeScalars.reserveCapacity(bytes.count)
        for byte in bytes { text.unicodeScalars.append(Unicode.Scalar(byte)) }
        return text
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C
    }

    /// The lines of `bytes`, split at "\n", "\r\n" and a lone "\r", each without its
    /// ending and without the spaces and tabs around it.
    static func lines(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var index = start
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                lines.append(trimmed(bytes[start..<index]))
                if byte == 0x0D, index + 1 < bytes.endIndex, bytes[index + 1] == 0x0A { index += 1 }
                start = index + 1
            }
            index += 1
        }
        if start < bytes.endIndex { lines.append(trimmed(bytes[start..<bytes.endIndex])) }
        return lines
    }

    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }

    /// Whether `bytes` starts with the ASCII `prefix`, ignoring the case of letters.
    static func hasPrefix(_ bytes: ArraySlice<UInt8>, caseInsensitive prefix: String) -> Bool {
        var index = bytes.startIndex
        for expected in prefix.utf8 {
            guard index < bytes.endIndex, lowercased(bytes[index]) == lowercased(expected) else { return false }
            index += 1
        }
        return true
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }
}
