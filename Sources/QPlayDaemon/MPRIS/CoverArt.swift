import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// The cover image beside a track (`cover.jpg`, `folder.png`, … as rippers and
/// players save them), for MPRIS's `mpris:artUrl`. Embedded pictures are not extracted.
enum CoverArt {
    static let names = ["cover", "Cover", "COVER", "folder", "Folder", "front", "Front", "album", "Album", "AlbumArt"]
    static let extensions = ["jpg", "jpeg", "png", "JPG", "PNG", "webp"]

    /// The first regular file of `names` × `extensions` in `folder`, nil when none is.
    static func find(in folder: FilePath) -> FilePath? {
        for name in names {
            for suffix in extensions {
                let candidate = folder.appending("\(name).\(suffix)")
                var info = stat()
                if candidate.withPlatformString({ stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG {
                    return candidate
                }
            }
        }
        return nil
    }
}
