#if canImport(Glibc)
import Glibc
#endif

/// One file per process that the targets reading from disk (TagLib, libmpg123, the
/// config loader) overwrite with each input: the code under test takes paths.
public struct ScratchFile: Sendable {
    public let path: String

    /// A fresh file in $TMPDIR (or /tmp) whose name ends in `.suffix`; removed at exit.
    public init(suffix: String) {
        let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        path = "\(folder)/qplay-fuzz-\(getpid())-\(ScratchFile.counter).\(suffix)"
        ScratchFile.counter += 1
        ScratchFile.paths.append(path)
        if ScratchFile.paths.count == 1 { atexit { for path in ScratchFile.paths { unlink(path) } } }
    }

    /// Replaces the file's contents with `bytes`.
    public func write(_ bytes: [UInt8]) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        fuzzCheck(fd >= 0, "cannot create \(path): errno \(errno)")
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            fuzzCheck(n > 0, "cannot write \(path): errno \(errno)")
            offset += n
        }
    }

    nonisolated(unsafe) private static var counter = 0
    nonisolated(unsafe) private static var paths: [String] = []
}
