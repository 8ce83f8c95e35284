/// index.html as qplayd serves it (scripts/gen-web-assets cuts it): the text between its
/// slots, and the same pieces raw-deflated each on its own, ended on a byte boundary.
/// A page is filled in per request with the track playing, so the first paint shows it
/// without waiting for the WebSocket; its gzip is the pieces' deflate with the slots'
/// text between them as stored blocks, so no compressor runs per request.
struct WebPageTemplate: Sendable {
    enum Slot: String, Sendable {
        case documentTitle = "document-title"
        case title
        case subtitle
        case toggleLabel = "toggle-label"
        case toggleIcon = "toggle-icon"
        /// ` hidden` on the "Listen here" button when there is no `/stream`.
        case listenHidden = "listen-hidden"
    }

    /// The page filled in: its bytes, their gzip and a strong ETag (quotes included).
    struct Page: Sendable {
        let body: [UInt8]
        let gzipped: [UInt8]
        let etag: String
    }

    let slots: [Slot]
    /// One more than `slots`: `slots[i]` goes after `pieces[i]`.
    let pieces: [[UInt8]]
    let deflated: [[UInt8]]
    /// The template's own tag (a prefix of its SHA-256).
    let tag: String

    init(slots: [String], pieces: [String], deflated: [String], tag: String) {
        self.slots = slots.map { name in
            guard let slot = Slot(rawValue: name) else { preconditionFailure("scripts/gen-web-assets wrote slot \(name)") }
            return slot
        }
        self.pieces = pieces.map(WebAsset.decode)
        self.deflated = deflated.map(WebAsset.decode)
        self.tag = tag
        precondition(self.pieces.count == slots.count + 1 && self.deflated.count == self.pieces.count)
    }

    /// The page with `values` in its slots, each already escaped for where it goes.
    func fill(_ values: [Slot: String]) -> Page {
        var body: [UInt8] = []
        // gzip's header: deflate, no name, no time, best compression, unknown system.
        var gzipped: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 2, 0xFF]
        body.reserveCapacity(pieces.reduce(256) { $0 + $1.count })
        gzipped.reserveCapacity(deflated.reduce(512) { $0 + $1.count })
        for (index, piece) in pieces.enumerated() {
            body += piece
            gzipped += deflated[index]
            guard index < slots.count else { break }
            let text = Array((values[slots[index]] ?? "").utf8)
            body += text
            Self.appendStored(text, to: &gzipped)
        }
        let crc = CRC32.checksum(body)
        for value in [crc, UInt32(truncatingIfNeeded: body.count)] {
            gzipped += [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: value >> $0) }
        }
        let hex = String(crc, radix: 16) + "-" + String(body.count, radix: 16)
        return Page(body: body, gzipped: gzipped, etag: "\"\(tag)-\(hex)\"")
    }

    /// Deflate's stored blocks (not final) holding `bytes`: a header byte, LEN and its
    /// complement, the bytes; at most 65,535 a block.
    private static func appendStored(_ bytes: [UInt8], to out: inout [UInt8]) {
        var start = 0
        while start < bytes.count {
            let count = min(bytes.count - start, 65_535)
            let length = UInt16(count)
            out += [0, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += bytes[start..<start + count]
            start += count
        }
    }
}
