/// A request head's fields as the `WebGate` reads them, before the HTTP decoder: enough
/// for the upgrade's checks (`Host`, `Origin`, `Upgrade`, `Cookie`); the decoder still
/// parses the head properly afterwards. Built from plain bytes, so the `web-head` fuzz
/// target reads heads as the gate does.
///
/// Read byte by byte, as NIO's decoder reads: lines end at CR LF, a field's name ends at
/// its first colon. Not as text: a combining mark after the colon joins it into one
/// `Character` that is not ":", and such a line, which NIO reads as a field, was skipped.
struct WebRawHead {
    private var fields: [(name: String, value: String)] = []

    init(_ bytes: some Collection<UInt8>) {
        let bytes = Array(bytes)
        var start = 0
        var index = 0
        var lines: [ArraySlice<UInt8>] = []
        while index + 1 < bytes.count {
            if bytes[index] == 0x0D && bytes[index + 1] == 0x0A {
                lines.append(bytes[start..<index])
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        lines.append(bytes[start...])
        // NIO skips blank lines before the request line.
        for line in lines.drop(while: \.isEmpty).dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            var value = line[(colon + 1)...]
            while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            fields.append((name, String(decoding: value, as: UTF8.self)))
        }
    }

    /// The first field of that (lowercase) name.
    func field(_ name: String) -> String? {
        fields.first(where: { $0.name == name })?.value
    }

    /// Every field of that (lowercase) name, in order.
    func fields(_ name: String) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }
}
