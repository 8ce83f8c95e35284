/// How a format's files begin, after any leading ID3v2 tag (see `AudioFileFormat.headLength`).
public enum ContentSignature: Sendable {
    /// The head starts with `bytes` in the bits `mask` sets (an MPEG frame's 11-bit sync:
    /// `[0xFF, 0xE0]` under the same mask).
    case bits([UInt8], mask: [UInt8])
    /// An Ogg page whose first packet begins with the codec's identification: Vorbis,
    /// Opus (and FLAC in Ogg) all live in Ogg pages, and only the first packet says
    /// which codec a file holds.
    case oggFirstPacket([UInt8])
    /// An MP4 file (its first box an `ftyp`) whose first sound track holds samples of
    /// the sample entry type `sampleEntry` (`mp4a`: AAC, `alac`): the codec, not the
    /// container, is the format. The `moov` box that says so may come after the audio,
    /// so this needs the file (see `MP4SampleEntry`), not only its head.
    case mp4(sampleEntry: [UInt8])
    /// Any of these: a format whose files come in more than one form (AAC in MP4 or as
    /// ADTS frames).
    indirect case anyOf([ContentSignature])

    /// A RIFF-style file: `chunk` ("RIFF", "FORM"), a 4-byte size, then `form`
    /// ("WAVE", "AIFF").
    public static func riff(_ chunk: [UInt8], form: [UInt8]) -> ContentSignature {
        .bits(chunk + [0, 0, 0, 0] + form, mask: chunk.map { _ in 0xFF } + [0, 0, 0, 0] + form.map { _ in 0xFF })
    }

    /// The head starts with exactly `bytes` ("fLaC").
    public static func prefix(_ bytes: [UInt8]) -> ContentSignature {
        .bits(bytes, mask: bytes.map { _ in 0xFF })
    }

    /// Whether `head` — a file's first bytes after any leading ID3v2 tag — starts so;
    /// `file` reads further from the same place, for the signatures a head cannot tell
    /// (MP4's codec). Without it, an MP4 signature matches nothing.
    public func matches(_ head: [UInt8], file: ContentReader? = nil) -> Bool {
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
        case .mp4(let sampleEntry):
            guard let file, head.count >= 8, head[4..<8].elementsEqual(MP4SampleEntry.ftyp) else { return false }
            return MP4SampleEntry.soundCodec(file) == sampleEntry
        case .anyOf(let signatures):
            return signatures.contains { $0.matches(head, file: file) }
        }
    }

    static let oggCapturePattern: [UInt8] = Array("OggS".utf8)
}
