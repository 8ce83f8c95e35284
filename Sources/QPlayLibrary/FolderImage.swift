import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// The image file beside a track: `cover`, `folder`, `front` or `album` in any case, with
/// `.jpg`, `.jpeg`, `.png` or `.webp` (as rippers and players save them), the first name
/// of that order winning, then the first suffix.
public enum FolderImage {
    public static let names = ["cover", "folder", "front", "album"]
    public static let suffixes = ["jpg", "jpeg", "png", "webp"]

    /// The best-ranked regular file of that kind in `folder`; nil when none is. Names
    /// that differ only in case rank by their bytes, so the answer does not depend on
    /// the directory's order.
    public static func find(in folder: FilePath) -> FilePath? {
        guard let directory = folder.withPlatformString({ opendir($0) }) else { return nil }
        defer { closedir(directory) }
        var best: (rank: Int, name: String)?
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard let rank = rank(of: name) else { continue }
            if let current = best {
                if rank > current.rank { continue }
                if rank == current.rank, !name.utf8.lexicographicallyPrecedes(current.name.utf8) { continue }
            }
            guard isRegularFile(folder.appending(name)) else { continue }
            best = (rank, name)
        }
        return best.map { folder.appending($0.name) }
    }

    /// The image beside the track at `track` (an absolute path).
    public static func find(beside track: FilePath) -> FilePath? {
        find(in: track.removingLastComponent())
    }

    /// Reads `file` whole, refusing one over `maximumSize`.
    public static func read(_ file: FilePath, maximumSize: Int = Artwork.maximumSize) throws(ArtworkError) -> Artwork {
        let descriptor = file.withPlatformString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard descriptor >= 0 else { throw .unreadable(errno: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw .invalidFile }
        let size = Int(info.st_size)
        guard size <= maximumSize else { throw .tooLarge(size: size) }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, size - done, off_t(done)) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            done += got
        }
        // A file that shrank while read hands out what it holds now.
        if done < size { bytes.removeSubrange(done...) }
        return Artwork(bytes: bytes, mime: mime(of: bytes, file: file), pictureType: nil, source: .file(file))
    }

    /// The image's type by its content, else by its suffix.
    static func mime(of bytes: [UInt8], file: FilePath) -> String? {
        if let sniffed = Artwork.sniffedMIME(bytes) { return sniffed }
        switch file.extension?.lowercased() {
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "webp": return "image/webp"
        default: return nil
        }
    }

    /// The rank of a file name: names × suffixes in their order; nil for other names.
    static func rank(of fileName: String) -> Int? {
        let lowered = fileName.lowercased()
        guard let dot = lowered.lastIndex(of: ".") else { return nil }
        guard let name = names.firstIndex(of: String(lowered[..<dot])),
            let suffix = suffixes.firstIndex(of: String(lowered[lowered.index(after: dot)...]))
        else { return nil }
        return name * suffixes.count + suffix
    }

    static func isRegularFile(_ path: FilePath) -> Bool {
        var info = stat()
        return path.withPlatformString { stat($0, &info) } == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
