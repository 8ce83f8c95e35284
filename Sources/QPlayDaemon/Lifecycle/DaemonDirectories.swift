import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Creates the daemon's folders before anything is opened in them.
///
/// Every folder qplayd creates is 0700. A folder that already exists is left as it is,
/// except a *dedicated* socket folder (the default `$XDG_RUNTIME_DIR/qplay` or
/// `/tmp/qplay-$UID`): that one must be a directory owned by this user — in /tmp anyone
/// could have made it first — and is tightened to 0700. A socket the user placed in a
/// shared folder (`--socket /tmp/x.sock`) relies on the socket's own 0600 mode and the
/// peer uid check instead.
public enum DaemonDirectories {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var path: FilePath
        public var reason: String

        public var description: String { "cannot prepare the folder \(path): \(reason)" }
    }

    /// The socket folder and the data folder of `configuration`.
    public static func prepare(for configuration: DaemonConfiguration) throws(Failure) {
        try prepareSocketDirectory(
            configuration.socketDirectory, dedicated: configuration.socketDirectoryIsDedicated)
        try createDirectory(configuration.dataDirectory)
    }

    public static func prepareSocketDirectory(_ path: FilePath, dedicated: Bool) throws(Failure) {
        let created = try createDirectory(path)
        guard dedicated, !created else { return }
        var info = stat()
        guard stat(path.string, &info) == 0 else { throw Failure(path: path, reason: Errno(rawValue: errno).description) }
        guard info.st_uid == getuid() else {
            throw Failure(
                path: path,
                reason: "it belongs to uid \(info.st_uid), not to this user (uid \(getuid())); remove it or choose another --socket")
        }
        if info.st_mode & 0o077 != 0, chmod(path.string, 0o700) != 0 {
            throw Failure(path: path, reason: "cannot make it private (0700): \(Errno(rawValue: errno))")
        }
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
