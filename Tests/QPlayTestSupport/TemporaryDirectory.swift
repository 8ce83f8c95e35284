import Foundation
import SystemPackage

/// A fresh directory under the system's temporary folder, removed on `remove()`.
public struct TemporaryDirectory: Sendable {
    public let path: FilePath

    public init(_ label: String = "qplay-test") {
        var template = Array("\(NSTemporaryDirectory())/\(label).XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard let made else { fatalError("mkdtemp failed") }
        path = FilePath(platformString: made)
    }

    public func appending(_ name: String) -> FilePath { path.appending(name) }

    /// A path in this directory whose last component is the given raw bytes.
    public func appending(rawName: [UInt8]) -> FilePath {
        let parent = Array(path.string.utf8)
        let bytes = parent + [UInt8(ascii: "/")] + rawName + [0]
        return bytes.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { FilePath(platformString: $0.baseAddress!) }
        }
    }

    public func write(_ bytes: [UInt8], to path: FilePath) throws {
        let descriptor = try FileDescriptor.open(
            path, .writeOnly, options: [.create, .truncate], permissions: .ownerReadWrite)
        defer { try? descriptor.close() }
        _ = try descriptor.writeAll(bytes)
    }

    public func copy(_ source: FilePath, to destination: FilePath) throws {
        try write(try Self.read(source), to: destination)
    }

    public static func read(_ path: FilePath) throws -> [UInt8] {
        let descriptor = try FileDescriptor.open(path, .readOnly)
        defer { try? descriptor.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try descriptor.read(into: $0) }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }

    public func remove() {
        try? FileManager.default.removeItem(atPath: path.string)
    }
}

/// Deterministic pseudo-random bytes (SplitMix64), for garbage files.
public func pseudoRandomBytes(count: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    while bytes.count < count {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        withUnsafeBytes(of: z) { bytes += $0.prefix(count - bytes.count) }
    }
    return bytes
}
