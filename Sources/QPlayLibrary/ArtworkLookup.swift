import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Finds a track's picture on request, never during a scan (docs/PROTOCOL.md, `art`):
/// the embedded front cover (else the first embedded picture), else the image beside the
/// file (`FolderImage`). Clients read a picture in chunks, one request each, so the last
/// few embedded pictures are kept while their file stays the same (its size, change
/// time and inode): an 8 KiB MPD chunk must not parse the file again.
public final class ArtworkLookup: Sendable {
    private struct Key: Equatable {
        let path: FilePath
        let first: Bool
        let stamp: FileStamp
    }

    private struct Kept {
        let key: Key
        let artwork: Artwork?
    }

    private let kept = Mutex<[Kept]>([])
    private let keptBytes: Int

    /// `keptBytes`: the most the kept pictures may hold together. Small, as the daemon's
    /// resident memory counts: a cover is a few hundred KB; a picture larger than the
    /// bound is read again for each chunk instead.
    public init(keptBytes: Int = 8 << 20) {
        self.keptBytes = keptBytes
    }

    /// The track's picture in the contract's order; nil when it has none. An embedded
    /// picture that cannot be read (a damaged tag) leaves the folder's image to answer;
    /// its error is thrown only when there is none.
    public func artwork(for track: FilePath) throws(ArtworkError) -> Artwork? {
        let embedded: Result<Artwork?, ArtworkError>
        do {
            embedded = .success(try self.embedded(track, choice: .frontCover))
        } catch {
            embedded = .failure(error)
        }
        if case .success(let artwork?) = embedded { return artwork }
        if let image = FolderImage.find(beside: track) { return try FolderImage.read(image) }
        return try embedded.get()
    }

    /// The embedded picture by `choice`, from the kept ones when the file is unchanged.
    public func embedded(_ track: FilePath, choice: EmbeddedPicture.Choice) throws(ArtworkError) -> Artwork? {
        guard let stamp = FileStamp(track) else {
            return try EmbeddedPicture.read(track, choice: choice)
        }
        let key = Key(path: track, first: choice == .first, stamp: stamp)
        if let hit = kept.withLock({ list in list.first { $0.key == key } }) { return hit.artwork }
        let artwork = try EmbeddedPicture.read(track, choice: choice)
        keep(Kept(key: key, artwork: artwork))
        return artwork
    }

    private func keep(_ entry: Kept) {
        let size = entry.artwork?.bytes.count ?? 0
        guard size <= keptBytes else { return }
        kept.withLock { list in
            list.removeAll { $0.key == entry.key }
            list.insert(entry, at: 0)
            // Newest first; the oldest go while the total is over the bound.
            var total = 0
            var count = 0
            for kept in list {
                total += kept.artwork?.bytes.count ?? 0
                if total > keptBytes || count >= 4 { break }
                count += 1
            }
            list.removeSubrange(count...)
        }
    }
}

/// What tells whether a file changed: size, modification and change time, inode.
struct FileStamp: Equatable {
    let size: Int64
    let modified: Int64
    let changed: Int64
    let inode: UInt64

    init?(_ path: FilePath) {
        var info = stat()
        guard path.withPlatformString({ stat($0, &info) }) == 0 else { return nil }
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        inode = UInt64(info.st_ino)
    }
}
