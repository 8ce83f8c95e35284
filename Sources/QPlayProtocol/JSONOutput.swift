/// Writes compact JSON bytes for the hot wire types (status, tracks, envelopes, events)
/// without `JSONEncoder`, whose generic machinery costs most of a `status` answer.
///
/// The bytes are exactly what `WireCoding.bytes` (JSONEncoder, sorted keys, slashes
/// unescaped) writes for the same value: every type writes its keys in sorted order,
/// and whatever this writer is not certain to spell the same way (control characters,
/// U+2028/U+2029, numbers outside the plain decimal range) clears `exact`, after which
/// the caller encodes the value with JSONEncoder instead.
struct JSONOutput {
    var bytes: [UInt8] = []
    /// False once something was met that only JSONEncoder spells for sure.
    var exact = true

    init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `"key":`; keys are plain ASCII literals.
    mutating func key(_ name: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func null() { raw("null") }

    mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    mutating func integer(_ value: some BinaryInteger) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    /// As JSONEncoder writes a Double: its shortest description, without a trailing
    /// `.0`. Only the plain decimal range is written here.
    mutating func number(_ value: Double) {
        let magnitude = value.magnitude
        guard value.isFinite, magnitude == 0 || (magnitude >= 1e-3 && magnitude < 1e15) else {
            exact = false
            return
        }
        if value == value.rounded(.towardZero) {
            integer(Int64(value))
            if value == 0 && value.sign == .minus { exact = false }
            return
        }
        bytes.append(contentsOf: value.description.utf8)
    }

    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                    bytes.append(UInt8(ascii: "\\"))
                    bytes.append(byte)
                    start = index + 1
                case 0..<0x20, 0x7F:
                    exact = false
                case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80
                    && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                    exact = false
                default:
                    break
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    mutating func integer(_ value: (some BinaryInteger)?) {
        if let value { integer(value) } else { null() }
    }

    mutating func number(_ value: Double?) {
        if let value { number(value) } else { null() }
    }

    mutating func value(_ value: some WireEncodable) {
        value.write(to: &self)
    }

    mutating func value(_ value: (some WireEncodable)?) {
        if let value { value.write(to: &self) } else { null() }
    }

    mutating func comma() { bytes.append(UInt8(ascii: ",")) }
}

/// A wire type that writes its own JSON, keys sorted, exactly as JSONEncoder would.
protocol WireEncodable: Encodable {
    func write(to output: inout JSONOutput)
}
