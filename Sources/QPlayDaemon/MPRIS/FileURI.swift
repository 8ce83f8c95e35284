import SystemPackage

/// `file://` URIs of absolute paths, byte-exact both ways: every byte outside RFC 3986's
/// unreserved set and `/` is percent-encoded, so a name that is not UTF-8 survives.
enum FileURI {
    static func encode(_ path: FilePath) -> String {
        var text = "file://"
        path.withPlatformString { pointer in
            var cursor = pointer
            while cursor.pointee != 0 {
                let byte = UInt8(bitPattern: cursor.pointee)
                if isUnreserved(byte) || byte == UInt8(ascii: "/") {
                    text.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    text += "%" + hex(byte >> 4) + hex(byte & 0xF)
                }
                cursor += 1
            }
        }
        return text
    }

    /// The absolute path of a `file:` URI (`file:///path` or `file://localhost/path`);
    /// nil for another scheme, a remote host, a bad escape or a NUL byte.
    static func decode(_ uri: String) -> FilePath? {
        var bytes = Array(uri.utf8)
        let prefix = Array("file://".utf8)
        guard bytes.count > prefix.count,
            bytes[..<prefix.count].map({ $0 | 0x20 }) == prefix.map({ $0 | 0x20 })
        else { return nil }
        bytes.removeFirst(prefix.count)
        if bytes.starts(with: Array("localhost".utf8)) { bytes.removeFirst("localhost".utf8.count) }
        guard bytes.first == UInt8(ascii: "/") else { return nil }
        var path: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = digit(bytes[index + 1]), let low = digit(bytes[index + 2])
                else { return nil }
                path.append(high << 4 | low)
                index += 3
            } else {
                path.append(byte)
                index += 1
            }
        }
        guard !path.contains(0) else { return nil }
        let characters = path.map { CChar(bitPattern: $0) } + [0]
        return characters.withUnsafeBufferPointer { FilePath(platformString: $0.baseAddress!) }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    private static func hex(_ nibble: UInt8) -> String {
        String(UnicodeScalar(nibble < 10 ? nibble + 48 : nibble + 55))
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - 48
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - 87
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - 55
        default: nil
        }
    }
}
