import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Builds a `FilePath` from path bytes with one allocation and one copy: what a search
/// result costs per track.
///
/// `FilePath(platformString:)` takes ~250 ns for a 60-byte path (swift-system normalizes
/// separators byte by byte through generic, non-inlined collection code): at 5,000
/// results that alone would add over a millisecond to a search. A `FilePath` of
/// swift-system 1.x is a single stored array of its NUL-terminated bytes, and a path
/// without repeated "/", trailing "/" or NUL is already normalized, so such a path can
/// be that array, filled directly. Whether that layout holds is checked once per process
/// against the public initializer on sample paths; if it does not (another swift-system),
/// every path takes the public initializer. Paths that are not normalized never come
/// here (`isNormalized`: the search table keeps those rows whole).
enum FilePathBuilder {
    /// A path of `length` bytes that `fill` writes (without NUL); they must be normalized.
    static func path(length: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Void) -> FilePath {
        // Not `init(unsafeUninitializedCapacity:)` or `init(repeating:count:)`: they are
        // not specialized and look the array's type up at run time on every call.
        var storage: [CChar] = []
        storage.reserveCapacity(length + 1)
        storage.append(contentsOf: repeatElement(0, count: length + 1))
        storage.withUnsafeMutableBytes { fill($0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
        if layoutMatches { return unsafeBitCast(storage, to: FilePath.self) }
        return storage.withUnsafeBufferPointer { FilePath(platformString: $0.baseAddress!) }
    }

    /// True when `FilePath(platformString:)` keeps these bytes exactly: no NUL, no "//",
    /// no "/" at the end (except for "/" itself).
    static func isNormalized(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let slash = UInt8(ascii: "/")
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == 0 || (byte == slash && previous == slash) { return false }
            previous = byte
        }
        return previous != slash || bytes.count == 1
    }

    static let layoutMatches: Bool = {
        guard MemoryLayout<FilePath>.size == MemoryLayout<[CChar]>.size,
            MemoryLayout<FilePath>.alignment == MemoryLayout<[CChar]>.alignment
        else { return false }
        let samples: [[UInt8]] = [
            [], Array("a".utf8), Array("/".utf8), Array("Artist/Album/01 Title.mp3".utf8),
            Array("/music/caf".utf8) + [0xE9] + Array(" é/x.flac".utf8), Array("ü".utf8),
        ]
        for sample in samples {
            var storage = sample.map { CChar(bitPattern: $0) }
            storage.append(0)
            let expected = storage.withUnsafeBufferPointer { FilePath(platformString: $0.baseAddress!) }
            let built = unsafeBitCast(storage, to: FilePath.self)
            guard built == expected, built.hashValue == expected.hashValue, built.length == sample.count,
                built.string == expected.string, Array(built.components) == Array(expected.components),
                built.withPlatformString({ strlen($0) }) == sample.count
            else { return false }
        }
        return true
    }()
}
