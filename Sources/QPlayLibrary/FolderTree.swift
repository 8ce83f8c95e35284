#if canImport(Glibc)
import Glibc
#endif

/// Folders of the music directory as the watcher sees them: byte paths (relative paths
/// join with "/", the empty path is the directory itself) and the few reads of the
/// disk it makes. Bytes, not `FilePath` or `String`, because inotify hands names over
/// as bytes and the scanner indexes them byte-exact.
enum FolderTree {
    static let slash = UInt8(ascii: "/")

    /// `name` inside `folder` (the empty folder: the music directory).
    static func child(_ name: [UInt8], of folder: [UInt8]) -> [UInt8] {
        folder.isEmpty ? name : folder + [slash] + name
    }

    /// `folder` is `outer` or lies below it.
    static func isInside(_ folder: [UInt8], _ outer: [UInt8]) -> Bool {
        outer.isEmpty
            || folder == outer
            || (folder.count > outer.count && folder.starts(with: outer) && folder[outer.count] == slash)
    }

    /// Some folder of `folders` is `folder` or lies above it.
    static func covers(_ folders: Set<[UInt8]>, _ folder: [UInt8]) -> Bool {
        folders.contains { isInside(folder, $0) }
    }

    /// Whether `absolute` is a folder with something in it (an empty one may be the
    /// mount point of a disk not mounted yet).
    static func holdsEntries(_ absolute: [UInt8]) -> Bool {
        guard let handle = (absolute + [0]).withUnsafeBufferPointer({
            $0.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) }
        }) else { return false }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name != [46] && name != [46, 46] { return true }
        }
        return false
    }

    /// Whether `absolute` is a folder, or a symbolic link to one.
    static func isFolder(_ absolute: [UInt8]) -> Bool {
        var info = stat()
        return (absolute + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &info) }
        } == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The names of the folders directly in `absolute`, symbolic links to folders
    /// included (the scanner follows them), in byte order.
    static func subfolders(of absolute: [UInt8]) -> [[UInt8]] {
        guard let handle = (absolute + [0]).withUnsafeBufferPointer({
            $0.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) }
        }) else { return [] }
        defer { closedir(handle) }
        var names: [[UInt8]] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [46] || name == [46, 46] { continue }
            let type = entry.pointee.d_type
            if type == UInt8(DT_DIR) || ((type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN)) && isFolder(absolute + [slash] + name)) {
                names.append(name)
            }
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }
}
