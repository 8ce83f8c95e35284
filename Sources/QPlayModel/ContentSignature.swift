/// How a format's files begin, after any leading ID3v2 tag (see `AudioFileFormat.headLength`).
public enum ContentSignature: Sendable {
    /// The head starts with `bytes` in the bits `mask` sets (an MPEG frame's 11-bit sync:
    /// `[0xFF, 0xE0]` under the same mask).
    case bits([UInt8], mask: [UInt8])
    /// An Ogg page whose first packet begins with the codec's identification: Vorbis,
    /// Opus (and FLAC in Ogg) all live in Ogg pages, and only the first packet says
    /// which codec a file holds.
    case oggFirstPacket([UInt8])

    /// The head starts with exactly `bytes` ("fLaC").
    public static func prefix(_ bytes: [UInt8]) -> ContentSignature {
        .bits(bytes, mask: bytes.map { _ in 0xFF })
    }

    /// Whether `head` — a file's first bytes after any leading ID3v2 tag — starts so.
    public func matches(_ head: [UInt8]) -> Bool {
        switch self {
        case .bits(let bytes, let mask):
            guard head.count >= bytes.count else { return false }
            return bytes.indices.allSatisfy { head[$0] & mask[$0] == bytes[$0] }
        case .oggFirstPacket(let magic):
            // The page header is 27 bytes ("OggS", version, flags, granule position,
            // serial number, sequence number, CRC, segment count), then one lacing byte
            // per segment, then the packet data.
            guard head.count >= 27, head.starts(with: Self.oggCapturePattern) else { return false }
            let start = 27 + Int(head[26])
            guard head.count >= start + magic.count else { return false }
            return head[start..<(start + magic.count)].elementsEqual(magic)
        }
    }

    static let oggCapturePattern: [UInt8] = Array("OggS".utf8)
}
