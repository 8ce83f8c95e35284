/// One ICY (SHOUTcast/Icecast) metadata block: `StreamTitle='Artist - Title';StreamUrl='…';`
/// padded with NULs to a multiple of 16 bytes. Servers quote nothing inside the values,
/// so a title may hold `'` and even `';` ("Guns N' Roses - Don';t"): a value ends at the
/// first quote followed by `;` and then the end or the next `Key=`. Values are UTF-8
/// when valid, otherwise Latin-1; missing fields are nil. Icecast sends MP3 titles in
/// Latin-1 and writes the characters Latin-1 lacks as numeric references (`&#8211;` for
/// "–"): those are decoded.
public struct ICYMetadata: Equatable, Sendable {
    public struct Field: Equatable, Sendable {
        public var key: String
        public var value: String
    }

    /// Every `Key='value'` in block order.
    public var fields: [Field]

    public init(fields: [Field]) { self.fields = fields }

    /// `StreamTitle`: "Artist - Title" by convention, or whatever the station sends.
    public var title: String? { self["StreamTitle"] }
    /// `StreamUrl`: a web page or picture for the playing item (often empty).
    public var url: String? { self["StreamUrl"] }

    /// The first field named `key`, compared without case (servers vary).
    public subscript(key: String) -> String? {
        let wanted = key.lowercased()
        return fields.first { $0.key.lowercased() == wanted }?.value
    }

    /// Keys longer than this are not keys but text (the end check looks no further).
    static let maximumKeyLength = 64

    public static func parse<Block: Collection<UInt8>>(_ block: Block) -> ICYMetadata {
        var bytes = Array(block)
        if let nul = bytes.firstIndex(of: 0) { bytes.removeSubrange(nul...) }
        var fields: [Field] = []
        var index = 0
        while index < bytes.count {
            while index < bytes.count, bytes[index] == UInt8(ascii: ";") || TextBytes.isSpace(bytes[index]) {
                index += 1
            }
            guard index < bytes.count, let equals = keyEnd(bytes, from: index) else { break }
            let key = TextBytes.decode(bytes[index..<equals])
            let (value, next) = valueRange(bytes, from: equals + 1)
            let text = TextBytes.decode(TextBytes.trimmed(bytes[value]))
            fields.append(Field(key: key, value: decodingNumericReferences(text)))
            index = next
        }
        return ICYMetadata(fields: fields)
    }

    static func isKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// The index of the `=` after a key starting at `start`; nil if no key starts there.
    static func keyEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count, index - start < maximumKeyLength, isKeyByte(bytes[index]) { index += 1 }
        guard index > start, index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
        return index
    }

    /// Whether the value may end before `index`: the end of the block, or (after spaces)
    /// the next field's key.
    static func endsValue(_ bytes: [UInt8], at index: Int) -> Bool {
        var next = index
        while next < bytes.count, TextBytes.isSpace(bytes[next]) { next += 1 }
        return next == bytes.count || keyEnd(bytes, from: next) != nil
    }

    /// The value's bytes starting at `start` and where the next field may start.
    static func valueRange(_ bytes: [UInt8], from start: Int) -> (Range<Int>, next: Int) {
        guard start < bytes.count else { return (start..<start, start) }
        let quote = bytes[start]
        guard quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"") else {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            return (start..<end, end)
        }
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == quote {
                if index + 1 == bytes.count { return (start + 1..<index, index + 1) }
                if bytes[index + 1] == UInt8(ascii: ";"), endsValue(bytes, at: index + 2) {
                    return (start + 1..<index, index + 2)
                }
            }
            index += 1
        }
        // No closing quote: the value runs to the end (a block cut short).
        return (start + 1..<bytes.count, bytes.count)
    }

    /// `&#NNNN;` and `&#xHHHH;` as the characters they name (other `&` text stays).
    static func decodingNumericReferences(_ text: String) -> String {
        guard text.contains("&#") else { return text }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == "&", index + 1 < scalars.count, scalars[index + 1] == "#",
                let (scalar, end) = numericReference(scalars, from: index + 2)
            {
                result.append(scalar)
                index = end
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }

    /// The character of the digits from `start` to a `;`, and the index after the `;`.
    static func numericReference(_ scalars: [Unicode.Scalar], from start: Int) -> (Unicode.Scalar, Int)? {
        var index = start
        var radix: UInt32 = 10
        if index < scalars.count, scalars[index] == "x" || scalars[index] == "X" {
            radix = 16
            index += 1
        }
        var value: UInt32 = 0
        let digitsStart = index
        while index < scalars.count, index - digitsStart < 8, let digit = Character(scalars[index]).hexDigitValue,
            radix == 16 || digit < 10
        {
            value = value * radix + UInt32(digit)
            index += 1
        }
        guard index > digitsStart, index < scalars.count, scalars[index] == ";", value != 0,
            let scalar = Unicode.Scalar(value)
        else { return nil }
        return (scalar, index + 1)
    }
}
