import SystemPackage

/// A track's picture, as read on request (never during a scan): an embedded picture or
/// the image file beside the track (docs/PROTOCOL.md, `art`).
public struct Artwork: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// In the file's tags: ID3v2 APIC, FLAC PICTURE, METADATA_BLOCK_PICTURE, MP4 `covr`.
        case embedded
        /// An image file in the track's folder.
        case file(FilePath)
    }

    public let bytes: [UInt8]
    /// As the tag names it (`image/jpeg`, …), else as the bytes show; nil when neither tells.
    public let mime: String?
    /// ID3v2/FLAC picture type (3: front cover); nil for MP4 covers and image files.
    public let pictureType: Int?
    public let source: Source

    public init(bytes: [UInt8], mime: String?, pictureType: Int?, source: Source) {
        self.bytes = bytes
        self.mime = mime
        self.pictureType = pictureType
        self.source = source
    }

    /// The largest picture qplay hands out: covers are a few hundred KB, scans of a
    /// booklet a few MB; a bigger one is refused rather than held in memory.
    public static let maximumSize = 32 << 20

    /// The MIME type of an image from its first bytes (JPEG, PNG, WebP, GIF, BMP).
    public static func sniffedMIME(_ head: some Collection<UInt8>) -> String? {
        let bytes = Array(head.prefix(12))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return "image/webp"
        }
        if bytes.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if bytes.starts(with: Array("BM".utf8)) { return "image/bmp" }
        return nil
    }
}

/// Why no picture could be read. A track without a picture is not an error (nil).
public enum ArtworkError: Error, Equatable, CustomStringConvertible {
    case unreadable(errno: Int32)
    /// Not a file whose tags TagLib reads (nor a regular file).
    case invalidFile
    /// The picture is larger than `Artwork.maximumSize`.
    case tooLarge(size: Int)
    /// TagLib wanted more bytes or CPU time than reading a picture may take.
    case gaveUp
    case libraryFailure

    public var description: String {
        switch self {
        case .unreadable(let code): return "cannot open: errno \(code)"
        case .invalidFile: return "not a file with tags"
        case .tooLarge(let size): return "picture of \(size) bytes is larger than \(Artwork.maximumSize)"
        case .gaveUp: return "gave up reading its tags"
        case .libraryFailure: return "TagLib failed while reading it"
        }
    }
}
