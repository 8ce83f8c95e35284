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
        }
        return folders
    }

    private static func isFolder(_ path: FilePath, _ info: inout stat) -> Bool {
        path.withPlatformString { stat($0, &info) } == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
