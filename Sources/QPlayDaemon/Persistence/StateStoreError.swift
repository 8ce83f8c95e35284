import SystemPackage

public enum StateStoreError: Error, Equatable, CustomStringConvertible {
    /// The database could not be opened or migrated.
    case cannotOpen(path: FilePath, reason: String)
    /// A write did not commit (disk full, read-only, I/O error): nothing of it is on disk.
    case writeFailed(path: FilePath, reason: String)
    case readFailed(path: FilePath, reason: String)
    /// The saved state of the first format does not decode; start afresh.
    case undecodableState(path: FilePath, reason: String)
    /// `close()` was called; nothing more is written.
    case closed

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open the state database \(path): \(reason)"
        case .writeFailed(let path, let reason): "cannot save the player state to \(path): \(reason)"
        case .readFailed(let path, let reason): "cannot read the player state from \(path): \(reason)"
        case .undecodableState(let path, let reason): "the saved player state in \(path) cannot be decoded: \(reason)"
        case .closed: "the state store is closed"
        }
    }
}

/// A database file this build could not use, renamed so nothing is lost.
public struct MovedAsideFile: Sendable, Equatable {
    public var path: FilePath
    public var reason: String
}
