import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

extension LibraryScanner {
    /// The folders from the music directory down to `subpath` (symlinks followed), which
    /// the whole directory's walk enters before it reaches anything below `subpath`.
    /// Throws `subpathLoops` when one of them is a folder above it again, as
    /// `selfloop/selfloop` is for `ln -s . selfloop`: the whole walk enters each folder
    /// once and so never indexes anything there, and a scan of that path would otherwise
    /// add one more copy of the library each time. Stops at the first part that is not a
    /// folder (a gone folder is scanned to remove its tracks).
    ///
    /// Throws `subpathDuplicates` for a symlink on the way to a folder inside the music
    /// directory that the index holds by its own path (`ln -s Album alias`, `alias/…`):
    /// the whole walk entered that folder by its own path and skipped the link.
    func foldersAbove(_ subpath: FilePath) throws -> Set<DirectoryIdentity> {
        var folders = Set<DirectoryIdentity>()
        var path = musicDirectory
        var info = stat()
        guard Self.isFolder(path, &info) else { return folders }
        folders.insert(DirectoryIdentity(info))
        for component in subpath.components {
            path.append(component)
            guard Self.isFolder(path, &info) else { break }
            guard folders.insert(DirectoryIdentity(info)).inserted else {
                throw LibraryScanError.subpathLoops(subpath)
            }
            if let target = try indexedTarget(ofLink: path) {
                throw LibraryScanError.subpathDuplicates(subpath, indexedAs: target)
            }
        }
        return folders
    }

    /// Where the symlink at `path` leads inside the music directory (relative), when the
    /// index holds that folder there; nil for anything else (no link, a link out of the
    /// music directory, or to a folder indexed through the link itself).
    private func indexedTarget(ofLink path: FilePath) throws -> FilePath? {
        var info = stat()
        guard path.withPlatformString({ lstat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFLNK,
            let real = Self.realPath(path), let root = Self.realPath(musicDirectory),
            let relative = PathBytes.relative(PathBytes.bytes(real), to: PathBytes.bytes(root))
        else { return nil }
        let target = PathBytes.path(relative)
        return try index.holdsEntries(at: target) ? target : nil
    }

    private static func realPath(_ path: FilePath) -> FilePath? {
        path.withPlatformString { pointer in
            guard let resolved = realpath(pointer, nil) else { return nil }
            defer { free(resolved) }
            return FilePath(platformString: resolved)
        }
    }

    private static func isFolder(_ path: FilePath, _ info: inout stat) -> Bool {
        path.withPlatformString { stat($0, &info) } == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
