#if canImport(Glibc)
import Glibc
#endif

/// The watcher thread's state: the inotify descriptor, which watch is which folder, and
/// the batch being gathered. Lives on that thread alone.
struct WatchLoop {
    private static let folderEvents =
        UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_FROM) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE)
        | UInt32(IN_DELETE) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_ONLYDIR)
    private static let slash = UInt8(ascii: "/")

    private let root: [UInt8]
    private let extensions: [[UInt8]]
    private let settings: LibraryWatcher.Settings
    private let handler: @Sendable (LibraryWatcher.Request) -> Void
    private let wakeDescriptor: Int32
    private let clock = ContinuousClock()
    private var descriptor: Int32 = -1
    /// Watch descriptor → folder relative to the music directory (empty: the directory).
    private var folders: [Int32: [UInt8]] = [:]
    private var batch: WatchBatch
    private var limitReached = false
    private var nextFallbackScan: ContinuousClock.Instant?
    /// The music directory was removed, moved away or unmounted: watched again (and
    /// scanned) once it is back with something in it.
    private var rootGone = false

    init(
        root: [UInt8], extensions: Set<String>, settings: LibraryWatcher.Settings, wakeDescriptor: Int32,
        handler: @escaping @Sendable (LibraryWatcher.Request) -> Void
    ) {
        self.root = root.count > 1 && root.last == Self.slash ? Array(root.dropLast()) : root
        self.extensions = extensions.map { Array($0.lowercased().utf8) }
        self.settings = settings
        self.handler = handler
        self.wakeDescriptor = wakeDescriptor
        batch = WatchBatch(quietPeriod: settings.quietPeriod, cap: settings.cap)
    }

    mutating func run(until stopped: () -> Bool) {
        descriptor = inotify_init1(Int32(O_CLOEXEC))
        if descriptor < 0 {
            let reason = String(cString: strerror(errno))
            handler(.notice("cannot watch the music directory (\(reason)); rescanning it every \(Self.seconds(settings.fallbackInterval)) s"))
            limitReached = true
            nextFallbackScan = clock.now + settings.fallbackInterval
        } else {
            addTree([])
            if !limitReached {
                handler(.notice("watching \(folders.count) folders of the music directory"))
            }
        }
        defer { if descriptor >= 0 { close(descriptor) } }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !stopped() {
            // Sleep until an event or a stop, or until the batch or the periodic rescan is
            // due; four times a second while the music directory is gone.
            var wait: Duration? = rootGone ? .milliseconds(250) : nil
            for deadline in [batch.due, nextFallbackScan].compactMap({ $0 }) {
                let left = max(.zero, deadline - clock.now)
                wait = wait.map { min($0, left) } ?? left
            }
            let milliseconds = wait.map {
                Int32(clamping: $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000 + 1)
            } ?? -1
            var requests = [
                pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            ]
            if poll(&requests, descriptor >= 0 ? 2 : 1, milliseconds) > 0 && requests[1].revents & Int16(POLLIN) != 0 {
                readEvents(into: &buffer)
            }
            if rootGone && Self.holdsEntries(root) { rootCameBack() }
            let now = clock.now
            if let due = batch.due, now >= due {
                handler(.scan(batch.take().map { $0.isEmpty ? nil : PathBytes.path($0) }))
            }
            if let next = nextFallbackScan, now >= next {
                handler(.scan([nil]))
                nextFallbackScan = now + settings.fallbackInterval
            }
        }
    }

    private mutating func readEvents(into buffer: inout [UInt8]) {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return }
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
        for event in events { handle(event.watch, event.mask, event.name) }
    }

    private mutating func handle(_ watch: Int32, _ mask: UInt32, _ name: [UInt8]) {
        let now = clock.now
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            // Events were lost: look at everything again (an incremental scan).
            addTree([])
            batch.note([], at: now)
            return
        }
        if mask & UInt32(IN_IGNORED) != 0 {
            folders[watch] = nil
            return
        }
        guard let folder = folders[watch] else { return }
        if mask & (UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_UNMOUNT)) != 0 {
            // A subfolder's removal also comes as an event in its parent, scanned there.
            if folder.isEmpty && !rootGone {
                rootGone = true
                forgetAll()
                handler(.notice(
                    "the music directory was removed, moved away or unmounted; nothing is removed from the library, and it is watched again once it is back"))
            }
            return
        }
        let child = folder.isEmpty ? name : folder + [Self.slash] + name
        if mask & UInt32(IN_ISDIR) != 0 {
            if mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0 {
                addTree(child)
                batch.note(child, at: now)
            } else if mask & (UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM)) != 0 {
                forget(child)
                batch.note(child, at: now)
            }
            return
        }
        // A file: written and closed, moved in or out, deleted. A file only created is
        // still being written; its close comes later.
        let fileChanges = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_FROM) | UInt32(IN_MOVED_TO) | UInt32(IN_DELETE)
        if mask & fileChanges != 0 && isMusicFile(name) {
            batch.note(folder, at: now)
        }
    }

    /// Watches `relative` and every folder below it, depth first.
    private mutating func addTree(_ relative: [UInt8]) {
        var pending = [relative]
        while let folder = pending.popLast() {
            let absolute = folder.isEmpty ? root : root + [Self.slash] + folder
            guard addWatch(folder, absolute) else { continue }
            for name in Self.subfolders(of: absolute) {
                pending.append(folder.isEmpty ? name : folder + [Self.slash] + name)
            }
        }
    }

    /// False when the folder got no watch because the limit is reached (its subfolders
    /// are not tried either: the periodic rescan covers them).
    private mutating func addWatch(_ relative: [UInt8], _ absolute: [UInt8]) -> Bool {
        if let limit = settings.watchLimit, folders.count >= limit {
            reachedLimit()
            return false
        }
        let watch = (absolute + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { inotify_add_watch(descriptor, $0.baseAddress!, Self.folderEvents) }
        }
        if watch < 0 {
            if errno == ENOSPC {
                reachedLimit()
                return false
            }
            return true  // gone again or unreadable: nothing to watch, nothing to descend into
        }
        folders[watch] = relative
        return true
    }

    private mutating func reachedLimit() {
        guard !limitReached else { return }
        limitReached = true
        handler(.notice(
            "the inotify watch limit is reached (fs.inotify.max_user_watches): \(folders.count) folders watched; the whole music directory is rescanned every \(Self.seconds(settings.fallbackInterval)) s"))
        nextFallbackScan = clock.now + settings.fallbackInterval
    }

    /// Drops the watches of a folder that moved away or was deleted, and of its
    /// subfolders; a move within the directory watches them again at their new place.
    private mutating func forget(_ relative: [UInt8]) {
        for (watch, folder) in folders
        where folder == relative
            || (folder.count > relative.count && folder.starts(with: relative) && folder[relative.count] == Self.slash)
        {
            inotify_rm_watch(descriptor, watch)
            folders[watch] = nil
        }
    }

    private mutating func forgetAll() {
        for watch in folders.keys { inotify_rm_watch(descriptor, watch) }
        folders = [:]
    }

    private mutating func rootCameBack() {
        rootGone = false
        forgetAll()
        addTree([])
        batch.note([], at: clock.now)
        handler(.notice("the music directory is back: watching \(folders.count) folders and scanning it"))
    }

    /// Whether `absolute` is a folder with something in it (an empty one may be the
    /// mount point of a disk not mounted yet).
    private static func holdsEntries(_ absolute: [UInt8]) -> Bool {
        guard let handle = (absolute + [0]).withUnsafeBufferPointer({
            $0.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) }
        }) else { return false }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name != [46] && name != [46, 46] { return true }
        }
        return false
    }

    private func isMusicFile(_ name: [UInt8]) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return false }
        let ext = name[(dot + 1)...].map { ($0 >= 0x41 && $0 <= 0x5A) ? $0 | 0x20 : $0 }
        return extensions.contains(ext)
    }

    /// The names of the folders directly in `absolute` (symbolic links not followed).
    private static func subfolders(of absolute: [UInt8]) -> [[UInt8]] {
        guard let handle = (absolute + [0]).withUnsafeBufferPointer({
            $0.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) }
        }) else { return [] }
        defer { closedir(handle) }
        var names: [[UInt8]] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [46] || name == [46, 46] { continue }
            var isFolder = entry.pointee.d_type == UInt8(DT_DIR)
            if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                var info = stat()
                let path = absolute + [slash] + name + [0]
                isFolder = path.withUnsafeBufferPointer {
                    $0.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &info) }
                } == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            }
            if isFolder { names.append(name) }
        }
        return names
    }

    private static func seconds(_ duration: Duration) -> Int64 { duration.components.seconds }
}
