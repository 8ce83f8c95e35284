/// The bytes of one response: `key: value` lines, `list_OK` after each command of a
/// `command_list_ok_begin` list, `OK` at the end.
public struct MPDResponse: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    /// A value never breaks the line it is on: a newline in it (a tag can hold one)
    /// becomes a space, as a client reading line by line would otherwise lose sync.
    public mutating func field(_ key: String, _ value: String) {
        bytes.append(contentsOf: Self.oneLine(key).utf8)
        bytes.append(contentsOf: ": ".utf8)
        bytes.append(contentsOf: Self.oneLine(value).utf8)
        bytes.append(0x0A)
    }

    public mutating func field(_ key: String, _ value: Int) {
        field(key, String(value))
    }

    public mutating func listOK() { bytes.append(contentsOf: "list_OK\n".utf8) }

    public mutating func ok() { bytes.append(contentsOf: "OK\n".utf8) }

    /// An error ends a response: its ACK line, no `OK` after it.
    public mutating func ack(_ error: MPDError, index: Int) {
        bytes.append(contentsOf: error.ackLine(index: index).utf8)
    }

    /// The bytes written so far, handed out and cleared (the capacity kept for what
    /// follows): an answer sent in parts.
    public mutating func takeBytes() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    /// Raw bytes (a `binary` chunk, which comes with its length).
    public mutating func append(_ raw: some Sequence<UInt8>) { bytes.append(contentsOf: raw) }

    static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
        return String(decoding: text.utf8.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }, as: UTF8.self)
    }
}
