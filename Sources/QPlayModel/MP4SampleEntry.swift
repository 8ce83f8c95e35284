/// Random access to a file's bytes from where its signature starts (after any leading
/// ID3v2 tag): up to `count` bytes at `offset`, fewer at the end.
public typealias ContentReader = (_ offset: Int, _ count: Int) -> [UInt8]

/// The codec of an MP4 file's sound: the type of the first sample entry (`stsd`) of the
/// first track whose handler is `soun` — `mp4a` (AAC) or `alac`. An MP4 file says which
/// codec it holds only in its `moov` box, which may come after megabytes of audio (ffmpeg
/// writes it last), so the boxes are walked by their sizes with a few small reads, never
/// read whole; a walk of more than `boxLimit` boxes (a hostile file of tiny boxes) finds
/// nothing.
enum MP4SampleEntry {
    static let boxLimit = 256

    /// The sample entry type of the first sound track, nil when the walk finds none.
    static func soundCodec(_ read: @escaping ContentReader) -> [UInt8]? {
        var walk = Walk(read: read)
        guard let moov = walk.children(of: 0..<Int.max).first(where: { $0.type == Self.moov }) else { return nil }
        for trak in walk.children(of: moov.body) where trak.type == Self.trak {
            guard let mdia = walk.children(of: trak.body).first(where: { $0.type == Self.mdia }) else { continue }
            let inMedia = walk.children(of: mdia.body)
            // hdlr: version and flags, pre_defined, then the handler type.
            guard let hdlr = inMedia.first(where: { $0.type == Self.hdlr }),
                walk.read(hdlr.body.lowerBound + 8, 4) == Self.soun,
                let minf = inMedia.first(where: { $0.type == Self.minf }),
                let stbl = walk.children(of: minf.body).first(where: { $0.type == Self.stbl }),
                let stsd = walk.children(of: stbl.body).first(where: { $0.type == Self.stsd })
            else { continue }
            // stsd: version and flags, entry count, then the first entry's size and type.
            let type = walk.read(stsd.body.lowerBound + 12, 4)
            return type.count == 4 ? type : nil
        }
        return nil
    }

    struct Box {
        let type: [UInt8]
        /// The box's content, after its header.
        let body: Range<Int>
    }

    private struct Walk {
        let read: ContentReader
        var boxesLeft = MP4SampleEntry.boxLimit

        func read(_ offset: Int, _ count: Int) -> [UInt8] {
            offset >= 0 ? read(offset, count) : []
        }

        /// The boxes within `range` (of a parent's body), in order; stops at the file's
        /// end, at a box that does not fit its parent, and when the walk's budget is spent.
        mutating func children(of range: Range<Int>) -> [Box] {
            var found: [Box] = []
            var offset = range.lowerBound
            while offset < range.upperBound - 8, boxesLeft > 0 {
                boxesLeft -= 1
                let header = read(offset, 16)
                guard header.count >= 8 else { break }
                var size = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
                var headerSize = 8
                if size == 1 {
                    // A 64-bit size follows the type (an `mdat` over 4 GB).
                    guard header.count == 16, header[8] < 0x80 else { break }
                    size = header[8..<16].reduce(0) { $0 << 8 | Int($1) }
                    headerSize = 16
                } else if size == 0 {
                    // To the end of the file: only the last box, nothing after it.
                    size = range.upperBound == Int.max ? Int.max - offset : range.upperBound - offset
                }
                guard size >= headerSize, size <= range.upperBound - offset else { break }
                found.append(Box(type: Array(header[4..<8]), body: (offset + headerSize)..<(offset + size)))
                offset += size
            }
            return found
        }
    }

    static let ftyp = Array("ftyp".utf8)
    static let moov = Array("moov".utf8)
    static let trak = Array("trak".utf8)
    static let mdia = Array("mdia".utf8)
    static let hdlr = Array("hdlr".utf8)
    static let soun = Array("soun".utf8)
    static let minf = Array("minf".utf8)
    static let stbl = Array("stbl".utf8)
    static let stsd = Array("stsd".utf8)
}
