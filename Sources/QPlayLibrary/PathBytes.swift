import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Converts between `FilePath` and the exact bytes of a path, which is how the index
/// stores paths (a name that is not valid UTF-8 must still open after a round trip).
public enum PathBytes {
    public static func bytes(_ path: FilePath) -> [UInt8] {
        path.withPlatformString { pointer in
            let length = strlen(pointer)
            return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
                Array(UnsafeBufferPointer(start: $0, count: length))
            }
        }
    }

    public static func path<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> FilePath {
        var buffer = [UInt8]()
        buffer.reserveCapacity(bytes.count + 1)
        buffer.append(contentsOf: bytes)
        buffer.append(0)
        return buffer.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { FilePath(platformString: $0.baseAddress!) }
        }
    }

    /// The path for people and for `contains` searches: invalid UTF-8 becomes U+FFFD.
    static func displayString(_ path: FilePath) -> String {
        String(decoding: bytes(path), as: UTF8.self)
    }

    /// `path` relative to `root`, as bytes; nil when `path` is not below `root`.
    static func relative(_ path: [UInt8], to root: [UInt8]) -> ArraySlice<UInt8>? {
        let slash = UInt8(ascii: "/")
        guard path.starts(with: root) else { return nil }
        if root.last == slash {
            return path.count > root.count ? path[root.count...] : nil
        }
        guard path.count > root.count + 1, path[root.count] == slash else { return nil }
        return path[(root.count + 1)...]
    }
}
