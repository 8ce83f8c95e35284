import SystemPackage

/// Why a scan did not run. None of these changes the index.
public enum LibraryScanError: Error, Equatable, CustomStringConvertible {
    /// The music directory cannot be looked at (not there, not a directory, no access).
    case musicDirectoryUnavailable(FilePath, reason: String)
    /// The music directory holds nothing at all, as when a disk is not mounted: the
    /// scan refuses to purge the index.
    case musicDirectoryEmpty(FilePath)
    /// The subpath to scan is absolute or climbs out of the music directory.
    case subpathOutsideMusicDirectory(FilePath)
    /// The subpath to scan names nothing in the music directory, and the index holds
    /// nothing there either (a folder that was deleted is scanned: its tracks go).
    case subpathNotFound(FilePath)
    /// The subpath goes through a symlink back into a folder above it (a symlink loop):
    /// the whole directory's scan indexes that folder once, by its own path.
    case subpathLoops(FilePath)
    /// The subpath goes through a symlink to a folder the index holds by its own path
    /// (`indexedAs`): the whole directory's scan entered it there, not through the link.
    case subpathDuplicates(FilePath, indexedAs: FilePath)
    /// Another scan of the same index is running.
    case scanInProgress

    public var description: String {
        switch self {
        case .musicDirectoryUnavailable(let path, let reason):
            return "music directory \(path) is unavailable (\(reason)); the index was left as it was"
        case .musicDirectoryEmpty(let path):
            return "music directory \(path) is empty (is the disk mounted?); the index was left as it was"
        case .subpathOutsideMusicDirectory(let path):
            return "\(path) is not a path inside the music directory"
        case .subpathNotFound(let path):
            return "\(path) does not exist in the music directory"
        case .subpathLoops(let path):
            return "\(path) goes through a symlink back into a folder above it; the library indexes that folder once, by its own path"
        case .subpathDuplicates(let path, let folder):
            return "\(path) goes through a symlink to \(folder), which the library indexes by its own path"
        case .scanInProgress:
            return "a scan is already running"
        }
    }

    /// A path the whole scan would not index there: the request is at fault.
    public var isDuplicatePath: Bool {
        switch self {
        case .subpathLoops, .subpathDuplicates: true
        default: false
        }
    }
}
