#if canImport(Glibc)
import Glibc
#endif

/// The file under libvorbisfile or libopusfile: a `BudgetedReader` seen from the end of
/// a leading ID3v2 tag on. Such a tag is no part of Ogg, but some taggers write one, and
/// the libraries look for the first page only in the first 64 KB; the registry already
/// recognises the file by what follows the tag.
final class OggSource {
    let reader: BudgetedReader
    /// Where the Ogg stream starts in the file: offsets the libraries see count from here.
    let origin: Int

    init(_ reader: BudgetedReader) {
        self.reader = reader
        self.origin = reader.leadingTagSize
        _ = reader.seek(offset: origin, whence: SEEK_SET)
    }

    func read(into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        reader.read(into: destination, count: count)
    }

    /// The new position from the stream's start, or -1 (and the position at the start)
    /// for one before it.
    func seek(offset: Int, whence: Int32) -> Int {
        let target = reader.seek(offset: whence == SEEK_SET ? offset + origin : offset, whence: whence)
        guard target >= origin else {
            _ = reader.seek(offset: origin, whence: SEEK_SET)
            return -1
        }
        return target - origin
    }

    var position: Int { seek(offset: 0, whence: SEEK_CUR) }
}
