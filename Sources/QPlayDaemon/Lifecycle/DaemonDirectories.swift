import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Creates the daemon's folders before anything is opened in them.
///
/// Every folder qplayd creates is 0700. The data folder, and a *dedicated* socket folder
/// (the default `$XDG_RUNTIME_DIR/qplay` or `/tmp/qplay-$UID`), hold only qplayd's
/// files: one that exists already must be a real directory (not a symlink: in /tmp
/// anyone could have placed one first) owned by this user, and is tightened to 0700 when
/// looser. Nothing — not even the lock file — is created in a folder that fails this. A
/// socket the user placed in a shared folder (`--socket /tmp/x.sock`) relies on the
/// socket's own 0600 mode and the peer uid check instead; that folder is left as it is.
public enum DaemonDirectories {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var path: FilePath
        public var reason: String

        public var description: String { "cannot prepare the folder \(path): \(reason)" }
    }

    /// The socket folder and the data folder of `configuration`. Returns the existing
    /// folders that were tightened to 0700 (the daemon logs them).
    @discardableResult
    public static func prepare(for configuration: DaemonConfiguration) throws(Failure) -> [FilePath] {
        var tightened: [FilePath] = []
        if try prepareSocketDirectory(
            configuration.socketDirectory, dedicated: configuration.socketDirectoryIsDedicated)
        {
            tightened.append(configuration.socketDirectory)
        }
        if try preparePrivateDirectory(configuration.dataDirectory) {
            tightened.append(configuration.dataDirectory)
        }
        return tightened
    }

    /// Returns whether an existing folder was tightened.
    @discardableResult
    public static func prepareSocketDirectory(_ path: FilePath, dedicated: Bool) throws(Failure) -> Bool {
        guard dedicated else {
            try createDirectory(path)
            return false
        }
        return try preparePrivateDirectory(path)
    }

    /// Creates `path` (0700), or checks an existing one: a directory, not a symlink,
    /// owned by this user; tightened to 0700 when others may enter it. Returns whether
    /// it was tightened.
    @discardableResult
    public static func preparePrivateDirectory(_ path: FilePath) throws(Failure) -> Bool {
        guard path.isAbsolute else { throw Failure(path: path, reason: "the path is not absolute") }
        let parent = path.removingLastComponent()
        if parent != path { try createDirectory(parent) }
        if mkdir(path.string, 0o700) == 0 {
            // Don't depend on the umask for the mode.
            chmod(path.string, 0o700)
            return false
        }
        guard errno == EEXIST else { throw Failure(path: path, reason: "cannot create it: \(Errno(rawValue: errno))") }
        var info = stat()
        guard lstat(path.string, &info) == 0 else { throw Failure(path: path, reason: Errno(rawValue: errno).description) }
        guard info.st_mode & S_IFMT != S_IFLNK else {
            throw Failure(path: path, reason: "it is a symbolic link; qplayd uses only a real directory of its own there")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw Failure(path: path, reason: "it exists and is not a directory")
        }
        guard info.st_uid == getuid() else {
            throw Failure(
                path: path,
                reason: "it belongs to uid \(info.st_uid), not to this user (uid \(getuid())); remove it or choose another folder")
        }
        guard info.st_mode & 0o077 != 0 else { return false }
        guard chmod(path.string, 0o700) == 0 else {
            throw Failure(path: path, reason: "cannot make it private (0700): \(Errno(rawValue: errno))")
        }
        return true
    }

    /// `mkdir -p` with 0700 for every folder it makes. Returns whether the last one was made.
    @discardableResult
    public static func createDirectory(_ path: FilePath) throws(Failure) -> Bool {
        guard path.isAbsolute else { throw Failure(path: path, reason: "the path is not absolute") }
        var prefix = FilePath(root: path.root)
        var createdLast = false
        for component in path.components {
            prefix.append(component)
            if mkdir(prefix.string, 0o700) == 0 {
                // Don't depend on the umask for the mode.
                chmod(prefix.string, 0o700)
                createdLast = true
                continue
            }
            let error = Errno(rawValue: errno)
            createdLast = false
            guard error == .fileExists else {
                throw Failure(path: path, reason: "cannot create \(prefix): \(error)")
            }
        }
        var info = stat()
        guard stat(path.string, &info) == 0 else { throw Failure(path: path, reason: Errno(rawValue: errno).description) }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw Failure(path: path, reason: "it exists and is not a directory")
        }
        return createdLast
    }
}
