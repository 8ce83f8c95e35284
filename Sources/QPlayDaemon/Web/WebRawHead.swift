/// A request head's fields as the `WebGate` reads them, before the HTTP decoder: enough
/// for the upgrade's checks (`Host`, `Origin`, `Upgrade`, `Cookie`); the decoder still
/// parses the head properly afterwards. Built from plain bytes, so the `web-head` fuzz
/// target reads heads as the gate does.
struct WebRawHead {
    private var fields: [(name: String, value: String)] = []

    init(_ bytes: some Collection<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
            fields.append((name, value))
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

extension Substring {
    fileprivate func trimmingCharacters(in blanks: String) -> String {
        let set = Set(blanks)
        return String(drop(while: { set.contains($0) }).reversed().drop(while: { set.contains($0) }).reversed())
    }
}
