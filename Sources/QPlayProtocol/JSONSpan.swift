/// Finds where a member's value lies in a JSON object's bytes, without decoding it, so a
/// client can print a result exactly as the daemon wrote it.
enum JSONSpan {
    /// The byte range of the value of top-level member `key`; nil when absent or when the
    /// bytes are not a JSON object.
    static func member(_ key: String, of bytes: [UInt8]) -> Range<Int>? {
        let target = Array(key.utf8)
        var scanner = Scanner(bytes: bytes)
        scanner.skipWhitespace()
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        while true {
            scanner.skipWhitespace()
            guard let keyRange = scanner.skipString() else { return nil }
            let name = bytes[(keyRange.lowerBound + 1)..<(keyRange.upperBound - 1)]
            scanner.skipWhitespace()
            guard scanner.take(UInt8(ascii: ":")) else { return nil }
            scanner.skipWhitespace()
            let start = scanner.position
            guard scanner.skipValue() else { return nil }
            if name.elementsEqual(target) { return start..<scanner.position }
            scanner.skipWhitespace()
            guard scanner.take(UInt8(ascii: ",")) else { return nil }
        }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        mutating func skipWhitespace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) {
                position += 1
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// Skips a string starting at the current quote; returns its range, quotes included.
        mutating func skipString() -> Range<Int>? {
            let start = position
            guard take(UInt8(ascii: "\"")) else { return nil }
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: "\\") {
                    position += 1
                } else if byte == UInt8(ascii: "\"") {
                    return start..<position
                }
            }
            return nil
        }

        mutating func skipValue() -> Bool {
            guard position < bytes.count else { return false }
            switch bytes[position] {
            case UInt8(ascii: "\""):
                return skipString() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while position < bytes.count {
                    switch bytes[position] {
                    case UInt8(ascii: "\""):
                        guard skipString() != nil else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            position += 1
                            return true
                        }
                    default: break
                    }
                    position += 1
                }
                return false
            default:
                let start = position
                while position < bytes.count,
                    ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D]
                        .contains(bytes[position])
                {
                    position += 1
                }
                return position > start
            }
        }
    }
}
