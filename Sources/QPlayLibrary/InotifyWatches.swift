#if canImport(Glibc)
import Glibc
#endif

/// The watcher's inotify descriptor and its table of watches: which watch is which
/// folder and back. The kernel's side of watching, kept apart from what the watcher
/// makes of the events (batches, the watch limit's fallback, unmounts).
struct InotifyWatches {
    /// What a watch on a folder reports: files written, moved and deleted in it, folders
    /// created in it, and its own removal, move or unmount.
    private static let folderEvents =
        UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_FROM) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE)
        | UInt32(IN_DELETE) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_ONLYDIR)

    /// How `add` went.
    enum Addition {
        case added
        /// The watch limit (ours or the kernel's) is reached: the folder stays unwatched.
        case noRoom
        /// Gone, or already watched under another path (a link to it, or a loop).
        case skipped
    }

    /// The most watches given; nil: as many as the kernel allows.
    let limit: Int?
    private(set) var descriptor: Int32 = -1
    /// Watch descriptor → folder relative to the music directory (empty: the directory).
    /// The kernel gives a folder reached twice (through a symbolic link) the same watch:
    /// it keeps the path it was first reached by, as the scanner's walk does.
    private var folders: [Int32: [UInt8]] = [:]
    /// The same, folder → watch.
    private var watches: [[UInt8]: Int32] = [:]

    init(limit: Int?) {
        self.limit = limit
    }

    /// Sets up inotify; nil when it worked, else the reason it did not.
    mutating func open() -> String? {
        descriptor = inotify_init1(Int32(O_CLOEXEC))
        return descriptor < 0 ? String(cString: strerror(errno)) : nil
    }

    mutating func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    /// How many folders have a watch.
    var count: Int { folders.count }
    var watchedFolders: Set<[UInt8]> { Set(watches.keys) }
    func watch(of folder: [UInt8]) -> Int32? { watches[folder] }
    func folder(of watch: Int32) -> [UInt8]? { folders[watch] }

    /// Watches `relative` (found at `absolute`).
    mutating func add(_ relative: [UInt8], at absolute: [UInt8]) -> Addition {
        if let limit, folders.count >= limit, watches[relative] == nil { return .noRoom }
        let watch = (absolute + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { inotify_add_watch(descriptor, $0.baseAddress!, Self.folderEvents) }
        }
        if watch < 0 { return errno == ENOSPC ? .noRoom : .skipped }
        if let known = folders[watch], known != relative { return .skipped }
        folders[watch] = relative
        watches[relative] = watch
        return .added
    }

    /// The kernel dropped `watch` (its folder went, or it was removed here).
    mutating func dropped(_ watch: Int32) {
        if let folder = folders.removeValue(forKey: watch), watches[folder] == watch { watches[folder] = nil }
    }

    /// Removes the watches of `relative` and of every folder below it.
    mutating func forget(_ relative: [UInt8]) {
        for (watch, folder) in folders where FolderTree.isInside(folder, relative) {
            inotify_rm_watch(descriptor, watch)
            folders[watch] = nil
            watches[folder] = nil
        }
    }

    mutating func forgetAll() {
        for watch in folders.keys { inotify_rm_watch(descriptor, watch) }
        folders = [:]
        watches = [:]
    }

    /// The events of one read of the descriptor (none when the read fails).
    func readEvents(into buffer: inout [UInt8]) -> [(watch: Int32, mask: UInt32, name: [UInt8])] {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return [] }
        var events: [(watch: Int32, mask: UInt32, name: [UInt8])] = []
        buffer.withUnsafeBytes { bytes in
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len, then len bytes of NUL-padded name.
            while offset + 16 <= count {
                let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = bytes[(offset + 16)..<min(offset + 16 + length, count)]
                let name = Array(nameBytes.prefix { $0 != 0 })
                events.append((watch, mask, name))
                offset += 16 + length
            }
        }
        return events
    }
}
