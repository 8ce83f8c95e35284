import QPlayModel
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// A file of the music directory that the index does not hold, read as a scan reads it
/// (its tags through TagLib, its size and time from `stat`). For the few files a caller
/// needs before a scan has indexed them, such as the saved queue's after the index was
/// rebuilt.
public enum UnindexedFile {
    /// The file's track with the given id, or nil when it is not a regular, non-empty
    /// file whose tags can be read.
    public static func track(
        relativePath: FilePath, musicDirectory: FilePath, id: TrackID, budget: TagReadBudget = .standard
    ) -> Track? {
        let absolute = musicDirectory.pushing(relativePath)
        var info = stat()
        guard absolute.withPlatformString({ stat($0, &info) }) == 0,
            info.st_mode & S_IFMT == S_IFREG, info.st_size > 0,
            let tags = try? TagReader.read(absolute, budget: budget)
        else { return nil }
        var (track, _) = TrackBuilder.track(
            tags: tags, relativePath: PathBytes.bytes(relativePath), size: Int64(info.st_size),
            modificationTime: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
        track.id = id
        return track
    }
}
