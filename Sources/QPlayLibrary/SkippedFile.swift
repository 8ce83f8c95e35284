import SystemPackage

/// A file a scan could not index, remembered with the size and modification time it had
/// so later scans neither read it nor report it again until it changes.
public struct SkippedFile: Sendable, Equatable {
    /// Relative to the music directory, exact bytes.
    public var pathBytes: [UInt8]
    public var size: Int64
    public var modificationTime: Int64  // nanoseconds since the epoch
    public var reason: String

    public init(pathBytes: [UInt8], size: Int64, modificationTime: Int64, reason: String) {
        self.pathBytes = pathBytes
        self.size = size
        self.modificationTime = modificationTime
        self.reason = reason
    }

    public var path: FilePath { PathBytes.path(pathBytes) }

    /// Whether a file the walk found with this size and time is the one remembered.
    func matches(size: Int64, modificationTime: Int64) -> Bool {
        self.size == size && self.modificationTime == modificationTime
    }
}
