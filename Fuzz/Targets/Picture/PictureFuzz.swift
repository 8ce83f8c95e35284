import QPlayFuzzSupport
import QPlayLibrary
import SystemPackage

/// The picture reader (CTagLib's qp_picture_read, through `EmbeddedPicture` as `art`,
/// MPD and MPRIS call it) on damaged files: ID3v2 APIC frames, FLAC PICTURE blocks,
/// METADATA_BLOCK_PICTURE comments, MP4 `covr` atoms. It must hand out a picture within
/// its bound or none, or report an `ArtworkError`, never crash or read out of bounds.
///
/// Input: a byte choosing the file name's extension, a byte choosing front cover or
/// first picture, then the file.
@main
enum PictureFuzz {
    static func main() { FuzzDriver.run(check) }

    static let files = ["mp3", "flac", "ogg", "opus", "m4a", "wav", "aiff"].map { ScratchFile(suffix: $0) }
    /// Small, so a mutated size field also meets the refusal.
    static let bound = 64 << 10

    static func check(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let file = files[input.choose(files.count)]
        let choice: EmbeddedPicture.Choice = input.choose(2) == 0 ? .first : .frontCover
        let contents = Array(input.rest())
        file.write(contents)
        do {
            guard let art = try EmbeddedPicture.read(FilePath(file.path), choice: choice, maximumSize: bound) else { return }
            fuzzCheck(!art.bytes.isEmpty, "an empty picture")
            fuzzCheck(art.bytes.count <= bound, "a picture of \(art.bytes.count) bytes over the bound")
            fuzzCheck(art.bytes.count <= contents.count, "a picture of \(art.bytes.count) bytes in a file of \(contents.count)")
        } catch .tooLarge(let size) {
            fuzzCheck(size > bound, "refused as too large at \(size) bytes")
        } catch {}
    }
}
