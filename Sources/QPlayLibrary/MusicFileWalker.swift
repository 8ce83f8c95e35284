import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Walks a music directory with `readdir`, so file names stay the exact bytes on disk
/// (FileManager would turn invalid UTF-8 into U+FFFD and the file could not be opened).
/// Symlinked directories are followed once: a directory already visited (same device
/// and inode) is not entered again, which also breaks symlink loops.
public struct MusicFileWalker {
    /// A file the walk found, with what `stat` said of it.
    public struct Entry: Sendable, Equatable {
        public var path: FilePath
        public var size: Int64
        public var modificationTime: Int64  // nanoseconds since the epoch
    }

    /// A place the walk could not enter or look at.
    public struct Problem: Sendable, Equatable {
        public var path: FilePath
        public var reason: String
    }

    public let extensions: Set<String>

    /// `extensions`: lower-case file name extensions to report ("mp3", …).
    public init(extensions: Set<String>) {
        self.extensions = extensions
    }

    /// Calls `found` for every matching regular file below `root`, in byte order of the
    /// names within each directory, and returns what could not be read.
    public func walk(_ root: FilePath, found: (Entry) -> Void) -> [Problem] {
        var visited = Set<DirectoryIdentity>()
        var problems: [Problem] = []
        var rootInfo = stat()
        guard fileStatus(root, &rootInfo) == 0 else {
            return [Problem(path: root, reason: Self.errorText())]
        }
        guard (rootInfo.st_mode & S_IFMT) == S_IFDIR else {
            return [Problem(path: root, reason: "not a directory")]
        }
        var pending: [FilePath] = [root]
        visited.insert(DirectoryIdentity(rootInfo))
        while let directory = pending.popLast() {
            var subdirectories: [FilePath] = []
            let listed = list(directory) { name in
                let path = directory.appending(name)
                var info = stat()
                // stat, not lstat: symlinks to files and folders are followed.
                guard fileStatus(path, &info) == 0 else {
                    problems.append(Problem(path: path, reason: Self.errorText()))
                    return
                }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    if visited.insert(DirectoryIdentity(info)).inserted {
                        subdirectories.append(path)
                    }
                case S_IFREG:
                    guard let ext = name.extension?.lowercased(), extensions.contains(ext)
                    else { return }
                    found(
                        Entry(
                            path: path, size: Int64(info.st_size),
                            modificationTime: Int64(info.st_mtim.tv_sec) * 1_000_000_000
                                + Int64(info.st_mtim.tv_nsec)))
                default:
                    break
                }
            }
            if let failure = listed {
                problems.append(Problem(path: directory, reason: failure))
            }
            // Depth first, in name order: reverse so the first name is popped first.
            pending.append(contentsOf: subdirectories.reversed())
        }
        return problems
    }

    /// Lists one directory's names in byte order; returns an error text on failure.
    private func list(_ directory: FilePath, each: (FilePath.Component) -> Void) -> String? {
        guard let handle = directory.withPlatformString({ opendir($0) }) else {
            return Self.errorText()
        }
        defer { closedir(handle) }
        var names: [[CChar]] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> [CChar] in
                let chars = raw.bindMemory(to: CChar.self)
                let length = strnlen(chars.baseAddress!, chars.count)
                return Array(chars[0..<length])
            }
            if name == [46] || name == [46, 46] { continue }  // "." and ".."
            names.append(name)
        }
        names.sort { lhs, rhs in
            lhs.lexicographicallyPrecedes(rhs) { UInt8(bitPattern: $0) < UInt8(bitPattern: $1) }
        }
        for name in names {
            let component = (name + [0]).withUnsafeBufferPointer {
                FilePath.Component(platformString: $0.baseAddress!)
            }
            if let component { each(component) }
        }
        return nil
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}

private struct DirectoryIdentity: Hashable {
    let device: UInt64
    let inode: UInt64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

private func fileStatus(_ path: FilePath, _ info: inout stat) -> Int32 {
    path.withPlatformString { stat($0, &info) }
}
