import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Embedded pictures written out as files, for what takes a picture by path or URL (MPRIS
/// `mpris:artUrl`): `$XDG_CACHE_HOME/qplay/art/`, each picture once, named by its content,
/// the folder bounded in bytes with the least recently used pictures removed first.
public final class ArtCache: Sendable {
    public static let defaultBound = 64 << 20

    public let directory: FilePath
    public let bound: Int

    private struct Entry {
        var size: Int
        /// Larger is more recent: a counter, so two uses in one clock tick still order.
        var used: UInt64
    }

    private struct State {
        var loaded = false
        var entries: [String: Entry] = [:]
        var total = 0
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())

    public init(directory: FilePath, bound: Int = ArtCache.defaultBound) {
        self.directory = directory
        self.bound = bound
    }

    /// `$XDG_CACHE_HOME/qplay/art`, else `~/.cache/qplay/art`; nil without either.
    public static func defaultDirectory(environment: [String: String]) -> FilePath? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return FilePath(cache).appending("qplay/art")
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return FilePath(home).appending(".cache/qplay/art")
    }

    /// The file holding `bytes`, written when it is not there yet; nil when it cannot be
    /// (a picture larger than the bound, a folder that cannot be written).
    public func file(for bytes: [UInt8], mime: String?) -> FilePath? {
        guard !bytes.isEmpty, bytes.count <= bound else { return nil }
        let name = Self.name(for: bytes, mime: mime)
        let path = directory.appending(name)
        return state.withLock { state -> FilePath? in
            load(&state)
            state.clock += 1
            if state.entries[name] != nil, FolderImage.isRegularFile(path) {
                state.entries[name]?.used = state.clock
                // Its time too, so the order outlives a restart.
                _ = path.withPlatformString { utimensat(AT_FDCWD, $0, nil, 0) }
                return path
            }
            guard write(bytes, to: path) else { return nil }
            if let old = state.entries[name] { state.total -= old.size }
            state.entries[name] = Entry(size: bytes.count, used: state.clock)
            state.total += bytes.count
            prune(&state, keeping: name)
            return path
        }
    }

    /// The bytes the cached pictures hold together, as the cache counts them.
    public var totalBytes: Int {
        state.withLock { state in
            load(&state)
            return state.total
        }
    }

    /// A content address: two 64-bit FNV-1a hashes of the bytes and their length.
    static func name(for bytes: [UInt8], mime: String?) -> String {
        var first: UInt64 = 0xCBF2_9CE4_8422_2325
        var second: UInt64 = 0x6C62_272E_07BB_0142
        for byte in bytes {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            second = (second ^ UInt64(byte ^ 0x5A)) &* 0x0000_0100_0000_01B3
        }
        let suffix: String
        switch mime {
        case "image/jpeg": suffix = "jpg"
        case "image/png": suffix = "png"
        case "image/webp": suffix = "webp"
        case "image/gif": suffix = "gif"
        case "image/bmp": suffix = "bmp"
        default: suffix = "img"
        }
        return hex(first) + hex(second) + "-\(bytes.count).\(suffix)"
    }

    private static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }

    /// Reads what the folder holds (from an earlier run), oldest use first by time.
    private func load(_ state: inout State) {
        guard !state.loaded else { return }
        state.loaded = true
        guard let folder = directory.withPlatformString({ opendir($0) }) else { return }
        defer { closedir(folder) }
        var found: [(name: String, size: Int, time: Int64)] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard !name.hasPrefix(".") else {
                // A partial write of an earlier run.
                if name.hasPrefix(".partial-") { _ = directory.appending(name).withPlatformString { unlink($0) } }
                continue
            }
            var info = stat()
            guard directory.appending(name).withPlatformString({ stat($0, &info) }) == 0,
                info.st_mode & S_IFMT == S_IFREG
            else { continue }
            found.append((name, Int(info.st_size), Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)))
        }
        for file in found.sorted(by: { ($0.time, $0.name) < ($1.time, $1.name) }) {
            state.clock += 1
            state.entries[file.name] = Entry(size: file.size, used: state.clock)
            state.total += file.size
        }
        prune(&state, keeping: nil)
    }

    /// Removes the least recently used pictures until the total is within the bound.
    private func prune(_ state: inout State, keeping kept: String?) {
        guard state.total > bound else { return }
        let byAge = state.entries.sorted { $0.value.used < $1.value.used }
        for (name, entry) in byAge where name != kept {
            guard state.total > bound else { break }
            _ = directory.appending(name).withPlatformString { unlink($0) }
            state.entries[name] = nil
            state.total -= entry.size
        }
    }

    /// Writes `bytes` beside `path` and renames it into place: a reader never sees half
    /// a picture.
    private func write(_ bytes: [UInt8], to path: FilePath) -> Bool {
        // The cache home (~/.cache) may not exist yet, nor its qplay folder.
        _ = directory.removingLastComponent().removingLastComponent().withPlatformString { mkdir($0, 0o700) }
        _ = directory.removingLastComponent().withPlatformString { mkdir($0, 0o700) }
        _ = directory.withPlatformString { mkdir($0, 0o700) }
        let partial = directory.appending(".partial-\(getpid())-" + (path.lastComponent?.string ?? "art"))
        let descriptor = partial.withPlatformString { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { return false }
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            offset += count
        }
        close(descriptor)
        guard offset == bytes.count,
            partial.withPlatformString({ from in path.withPlatformString { rename(from, $0) } }) == 0
        else {
            _ = partial.withPlatformString { unlink($0) }
            return false
        }
        return true
    }
}
