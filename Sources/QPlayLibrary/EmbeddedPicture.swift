import CTagLib
import QPlayModel
import SystemPackage

/// Reads the picture embedded in a music file through the TagLib shim, the parser chosen
/// by the file's content as for its tags (`TagReader`).
public enum EmbeddedPicture {
    public enum Choice: Sendable {
        /// The front cover (picture type 3) when the file has one, else its first picture.
        case frontCover
        /// The first picture, whatever its type: what MPD's `readpicture` hands out.
        case first
    }

    /// The picture of `path` by `choice`; nil when the file has none. Reading holds the
    /// whole picture in memory, so one over `maximumSize` is refused unread by the copy
    /// and TagLib's reading is bounded by bytes and CPU time.
    public static func read(
        _ path: FilePath, choice: Choice = .frontCover, maximumSize: Int = Artwork.maximumSize
    ) throws(ArtworkError) -> Artwork? {
        var raw = qp_picture()
        var errorNumber: Int32 = 0
        // A picture is read whole, Ogg's base64 a third larger; the rest of a tag is small.
        var budget = qp_tag_budget(
            max_bytes: Int64(maximumSize) * 2 + (8 << 20), max_cpu_nanoseconds: 5_000_000_000)
        var choosing = Choosing(fileExtension: path.extension, file: ContentFile(path))
        let status = withUnsafeMutablePointer(to: &choosing) { context in
            path.withPlatformString {
                qp_picture_read(
                    $0, &budget, Int32(AudioFileFormat.headLength), { head, length, context in
                        let choosing = context!.assumingMemoryBound(to: Choosing.self).pointee
                        let bytes = head.map { Array(UnsafeBufferPointer(start: $0, count: Int(length))) } ?? []
                        return EmbeddedPicture.kind(head: bytes, choosing: choosing)
                    }, context, choice == .first ? QP_PICTURE_FIRST : QP_PICTURE_FRONT_COVER,
                    Int64(maximumSize), &raw, &errorNumber)
            }
        }
        defer { qp_picture_free(&raw) }
        switch status {
        case QP_PICTURE_OK:
            let bytes = raw.data.map { Array(UnsafeBufferPointer(start: $0, count: Int(raw.size))) } ?? []
            let named = raw.mime.map { String(cString: $0) }
            return Artwork(
                bytes: bytes, mime: named ?? Artwork.sniffedMIME(bytes),
                pictureType: raw.type >= 0 ? Int(raw.type) : nil, source: .embedded)
        case QP_PICTURE_NONE: return nil
        case QP_PICTURE_UNREADABLE: throw .unreadable(errno: errorNumber)
        case QP_PICTURE_INVALID: throw .invalidFile
        case QP_PICTURE_TOO_LARGE: throw .tooLarge(size: Int(raw.size))
        case QP_PICTURE_BUDGET: throw .gaveUp
        default: throw .libraryFailure
        }
    }

    /// The file's name and content beyond its head (an MP4's codec), for the chooser.
    private struct Choosing {
        let fileExtension: String?
        let file: ContentFile
    }

    /// The shim's parser for a file starting with `head`, as the tag reader picks it.
    private static func kind(head: [UInt8], choosing: Choosing) -> qp_tag_kind {
        let fileExtension = choosing.fileExtension
        var chosen = AudioFileFormat.choose(head: head, file: choosing.file.read, fileExtension: fileExtension)
        if chosen == .unrecognised, let searched = AudioFileFormat.searchedWhenUnrecognised,
            let named = fileExtension?.lowercased(), searched.fileExtensions.contains(named)
        {
            chosen = .recognised(searched)
        }
        guard case .recognised(let format) = chosen else { return QP_KIND_NONE }
        return qp_tag_kind(rawValue: format.row.tagLibKind.rawValue)
    }
}
