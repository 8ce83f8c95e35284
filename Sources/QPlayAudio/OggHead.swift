/// Recognising an Ogg file by its first page: Vorbis, Opus (and FLAC in Ogg) all live
/// in Ogg pages, and only the first packet says which codec a file holds.
enum OggHead {
    static let capturePattern: [UInt8] = Array("OggS".utf8)

    /// Whether `head` starts with an Ogg page whose first packet begins with `magic`.
    /// The page header is 27 bytes ("OggS", version, flags, granule position, serial
    /// number, sequence number, CRC, segment count), then one lacing byte per segment,
    /// then the packet data.
    static func firstPacket(of head: [UInt8], startsWith magic: [UInt8]) -> Bool {
        guard head.count >= 27, head.starts(with: capturePattern) else { return false }
        let start = 27 + Int(head[26])
        guard head.count >= start + magic.count else { return false }
        return head[start..<(start + magic.count)].elementsEqual(magic)
    }
}
