import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Walks a music directory with `readdir`, so file names stay the exact bytes on disk
/// (FileManager would turn invalid UTF-8 into U+FFFD and the file could not be opened).
/// Symlinked directories are followed once: a directory already visited (same device
/// and inode) is not entered again, which also breaks symlink loops.
///
/// Paths are handled as bytes and each name is looked at with `fstatat` relative to its
/// open directory: a no-change rescan of 100,000 files is mostly this walk.
public struct MusicFileWalker {
    /// A file the walk found, with what `stat` said of it.
    public struct Entry: Sendable, Equatable {
        /// The file's path: the walk's root followed by the names below it, as bytes.
        public var pathBytes: [UInt8]
        public var size: Int64
        public var modificationTime: Int64  // nanoseconds since the epoch
        /// What it is when not a regular file ("named pipe", "socket", "character
        /// device", "block device"); nil for a regular file. Such a file is never opened:
        /// reading a FIFO blocks, reading /dev/zero never ends.
        public var special: String?

        public init(pathBytes: [UInt8], size: Int64, modificationTime: Int64, special: String? = nil) {
            self.pathBytes = pathBytes
            self.size = size
            self.modificationTime = modificationTime
            self.special = special
        }

        public var path: FilePath { PathBytes.path(pathBytes) }
    }

    /// A place the walk could not enter or look at.
    public struct Problem: Sendable, Equatable {
        public var path: FilePath
        public var reason: String
    }

    public let extensions: Set<String>
    private let extensionBytes: [[UInt8]]

    /// `extensions`: file name extensions to report ("mp3", …), matched ignoring case.
    public init(extensions: Set<String>) {
        self.extensions = extensions
        extensionBytes = extensions.map { Array($0.lowercased().utf8) }
    }

    /// Calls `found` for every file below `root` whose name has a wanted extension —
    /// regular files, and FIFOs, sockets and devices (or links to them) with `special`
    /// set — in byte order of the names within each directory, and returns what could
    /// not be read.
    public func walk(_ root: FilePath, found: (Entry) -> Void) -> [Problem] {
        walk(root, above: [], found: found)
    }

    /// `walk` of a folder inside the music directory: `above` are the folders on the way
    /// down to it, which the whole directory's walk has entered already, so a link back
    /// up to one of them is not followed here either.
    func walk(_ root: FilePath, above: Set<DirectoryIdentity>, found: (Entry) -> Void) -> [Problem] {
        var visited = above
        var problems: [Problem] = []
        var rootInfo = stat()
        guard root.withPlatformString({ stat($0, &rootInfo) }) == 0 else {
            return [Problem(path: root, reason: Self.errorText())]
        }
        guard (rootInfo.st_mode & S_IFMT) == S_IFDIR else {
            return [Problem(path: root, reason: "not a directory")]
        }
        var rootBytes = PathBytes.bytes(root)
        while rootBytes.count > 1 && rootBytes.last == UInt8(ascii: "/") { rootBytes.removeLast() }
        var pending: [[UInt8]] = [rootBytes]
        visited.insert(DirectoryIdentity(rootInfo))
        while let directory = pending.popLast() {
            var subdirectories: [[UInt8]] = []
            let failure = list(directory) { handle, name in
                var info = stat()
                // fstatat without AT_SYMLINK_NOFOLLOW: symlinks to files and folders are followed.
                guard fstatat(dirfd(handle), name, &info, 0) == 0 else {
                    problems.append(Problem(path: PathBytes.path(Self.join(directory, name)), reason: Self.errorText()))
                    return
                }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    if visited.insert(DirectoryIdentity(info)).inserted {
                        subdirectories.append(Self.join(directory, name))
                    }
                default:
                    guard hasWantedExtension(name) else { return }
                    found(
                        Entry(
                            pathBytes: Self.join(directory, name), size: Int64(info.st_size),
                            modificationTime: Int64(info.st_mtim.tv_sec) * 1_000_000_000
                                + Int64(info.st_mtim.tv_nsec),
                            special: Self.specialKind(info.st_mode)))
                }
            }
            if let failure {
                problems.append(Problem(path: PathBytes.path(directory), reason: failure))
            }
            // Depth first, in name order: reverse so the first name is popped first.
            pending.append(contentsOf: subdirectories.reversed())
        }
        return problems
    }

    /// Lists one directory's names (NUL-terminated bytes) in byte order; returns an error
    /// text when it cannot be opened.
    private func list(
        _ directory: [UInt8], each: (OpaquePointer, [UInt8]) -> Void
    ) -> String? {
        guard let handle = (directory + [0]).withUnsafeBufferPointer({
            $0.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) }
        }) else {
            return Self.errorText()
        }
        defer { closedir(handle) }
        var names: [[UInt8]] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> [UInt8] in
                let length = raw.firstIndex(of: 0) ?? raw.count
                return Array(raw[..<length]) + [0]
            }
            if name == [46, 0] || name == [46, 46, 0] { continue }  // "." and ".."
            names.append(name)
        }
        names.sort { $0.lexicographicallyPrecedes($1) }
        for name in names { each(handle, name) }
        return nil
    }

    /// `name` (NUL-terminated) ends in ".EXT" for one of the extensions, ignoring case.
    private func hasWantedExtension(_ name: [UInt8]) -> Bool {
        let end = name.count - 1  // the NUL
        guard let dot = name[..<end].lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return false }
        let ext = name[(dot + 1)..<end]
        return extensionBytes.contains { wanted in
            wanted.count == ext.count
                && zip(wanted, ext).allSatisfy { w, c in
                    w == ((c >= 0x41 && c <= 0x5A) ? c | 0x20 : c)
                }
        }
    }

    private static func specialKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return "named pipe"
        case S_IFSOCK: return "socket"
        case S_IFCHR: return "character device"
        case S_IFBLK: return "block device"
        default: return "special file"
        }
    }

    private static func join(_ directory: [UInt8], _ name: [UInt8]) -> [UInt8] {
        var path = directory
        path.reserveCapacity(directory.count + name.count)
        if path.last != UInt8(ascii: "/") { path.append(UInt8(ascii: "/")) }
        path.append(contentsOf: name.dropLast())  // without the NUL
        return path
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}

struct DirectoryIdentity: Hashable {
    let device: UInt64
    let inode: UInt64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
