import SystemPackage

public enum StateStoreError: Error, Equatable, CustomStringConvertible {
    /// The database could not be opened or migrated.
    case cannotOpen(path: FilePath, reason: String)
    case writeFailed(String)
    case readFailed(String)
    /// The saved state was written with another `stateVersion`; start afresh.
    case incompatibleState(saved: Int, expected: Int)
    /// The saved state does not decode as the current state type; start afresh.
    case undecodableState(String)
    /// `close()` was called; nothing more is written.
    case closed

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open the state database \(path): \(reason)"
        case .writeFailed(let reason): "cannot save the player state: \(reason)"
        case .readFailed(let reason): "cannot read the player state: \(reason)"
        case .incompatibleState(let saved, let expected):
            "the saved player state has format version \(saved), this qplayd reads version \(expected)"
        case .undecodableState(let reason): "the saved player state cannot be decoded: \(reason)"
        case .closed: "the state store is closed"
        }
    }
}
