/// The `art` result: a piece of a track's picture (docs/PROTOCOL.md, `art`). A client
/// asks again from `offset` + the piece's length until it has `size` bytes.
public struct ArtChunk: Sendable, Hashable, Codable {
    /// The most bytes one answer carries (before base64).
    public static let maximumChunk = 1 << 20

    /// `image/jpeg`, `image/png`, … as the tag names it or the bytes show; null when
    /// neither tells.
    public var mime: String?
    /// The whole picture's size in bytes.
    public var size: Int
    /// Where this piece starts in the picture.
    public var offset: Int
    /// The piece, base64 (RFC 4648, with padding).
    public var data: String

    public init(mime: String?, size: Int, offset: Int, data: String) {
        self.mime = mime
        self.size = size
        self.offset = offset
        self.data = data
    }

    /// The piece of `picture` from `offset` (at most `maximumChunk` bytes).
    public init(mime: String?, picture: [UInt8], offset: Int) {
        let end = offset + min(max(0, picture.count - offset), Self.maximumChunk)
        self.init(
            mime: mime, size: picture.count, offset: offset,
            data: Base64.encode(picture[min(offset, end)..<end]))
    }

    /// The piece's bytes; nil when `data` is not base64.
    public var bytes: [UInt8]? {
        Base64.decode(data)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(data, forKey: .data)
        try container.encode(mime, forKey: .mime)
        try container.encode(offset, forKey: .offset)
        try container.encode(size, forKey: .size)
    }

    enum CodingKeys: String, CodingKey { case data, mime, offset, size }
}
