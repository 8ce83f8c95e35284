#if canImport(Glibc)
import Glibc
#endif

/// The watcher thread's state: the inotify descriptor, which watch is which folder, the
/// folders the watch limit left unwatched or whose disk was unmounted, and the batch
/// being gathered. Lives on that thread alone.
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
    /// The kernel gives a folder reached twice (through a symbolic link) the same watch:
    /// it keeps the path it was first reached by, as the scanner's walk does.
    private var folders: [Int32: [UInt8]] = [:]
    /// The same, folder → watch.
    private var watches: [[UInt8]: Int32] = [:]
    private(set) var batch: WatchBatch
    /// Folders the watch limit left without a watch, with everything below them: they
    /// are rescanned every `fallbackInterval` (the whole directory when inotify could
    /// not be set up at all).
    private(set) var unwatched: Set<[UInt8]> = []
    private var limitReported = false
    private var nextFallbackScan: ContinuousClock.Instant?
    /// Folders whose file system was unmounted: their tracks are kept, and each is
    /// watched (and scanned) again once it holds something.
    private(set) var unmounted: Set<[UInt8]> = []
    /// Unmounts seen in the events being read: the kernel tells each watched folder of
    /// the file system, so they are narrowed to the mount points once all are read.
    private var unmountsRead: Set<[UInt8]> = []
    /// When the unmounts read are narrowed: a moment after the last one, since one
    /// unmount's events may span several reads (the music directory's own may come
    /// after its subfolders').
    private var unmountsSettle: ContinuousClock.Instant?
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

    /// The folders with a watch, relative to the music directory.
    var watchedFolders: Set<[UInt8]> { Set(watches.keys) }

    func watch(of folder: [UInt8]) -> Int32? { watches[folder] }

    /// Sets up inotify and watches the tree; logs how many folders are watched.
    mutating func open() {
        descriptor = inotify_init1(Int32(O_CLOEXEC))
        if descriptor < 0 {
            let reason = String(cString: strerror(errno))
            handler(.notice(
                "cannot watch the music directory (\(reason)); rescanning it every \(Self.seconds(settings.fallbackInterval)) s"))
            unwatched = [[]]
            limitReported = true
            nextFallbackScan = clock.now + settings.fallbackInterval
            return
        }
        addTree([])
        if unwatched.isEmpty {
            handler(.notice("watching \(folders.count) folders of the music directory"))
        } else {
            reportLimit()
        }
    }

    mutating func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    mutating func run(until stopped: () -> Bool) {
        open()
        defer { close() }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !stopped() {
            // Sleep until an event or a stop, or until the batch or the periodic rescan is
            // due; four times a second while the music directory or a disk in it is gone.
            var wait: Duration? = rootGone || !unmounted.isEmpty ? .milliseconds(250) : nil
            for deadline in [batch.due, nextFallbackScan, unmountsSettle].compactMap({ $0 }) {
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
            if let settle = unmountsSettle, clock.now >= settle { settleUnmounts() }
            if rootGone && Self.holdsEntries(root) { rootCameBack() }
            lookForRemounts()
            let now = clock.now
            if let due = batch.due, now >= due {
                handler(.scan(batch.take().map { $0.isEmpty ? nil : PathBytes.path($0) }))
            }
            if let next = nextFallbackScan, now >= next {
                handler(.scan(rescanUnwatched().map { $0.isEmpty ? nil : PathBytes.path($0) }))
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
        take(events, settlingUnmounts: false)
        if !unmountsRead.isEmpty { unmountsSettle = clock.now + .milliseconds(100) }
    }

    /// Takes the events of one read (tests hand made-up ones in, settled at once).
    mutating func take(_ events: [(watch: Int32, mask: UInt32, name: [UInt8])], settlingUnmounts: Bool = true) {
        for event in events { handle(event.watch, event.mask, event.name) }
        if settlingUnmounts { settleUnmounts() }
    }

    private mutating func handle(_ watch: Int32, _ mask: UInt32, _ name: [UInt8]) {
        let now = clock.now
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            // Events were lost: look at everything again (an incremental scan), and watch
            // what was created meanwhile.
            addTree([])
            reportLimit()
            batch.note([], at: now)
            return
        }
        if mask & UInt32(IN_IGNORED) != 0 {
            if let folder = folders.removeValue(forKey: watch), watches[folder] == watch { watches[folder] = nil }
            return
        }
        guard let folder = folders[watch] else { return }
        if mask & UInt32(IN_UNMOUNT) != 0 && !folder.isEmpty {
            unmountsRead.insert(folder)
            return
        }
        if mask & (UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_UNMOUNT)) != 0 {
            // A subfolder's removal also comes as an event in its parent, scanned there.
            if folder.isEmpty && !rootGone {
                rootGone = true
                forgetAll()
                // The unmounts of its subfolders are the directory's own, looked after
                // as a whole: scans refuse a missing or empty music directory.
                for gone in unmounted { handler(.available(PathBytes.path(gone))) }
                unmounted = []
                unmountsRead = []
                handler(.notice(
                    "the music directory was removed, moved away or unmounted; nothing is removed from the library, and it is watched again once it is back"))
            }
            return
        }
        let child = folder.isEmpty ? name : folder + [Self.slash] + name
        let added = mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0
        let removed = mask & (UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM)) != 0
        // A folder, or a symbolic link to one (the scanner follows those): the link's
        // own events carry no IN_ISDIR.
        let isFolder =
            mask & UInt32(IN_ISDIR) != 0
            || (added && !isMusicFile(name) && Self.isFolder(absolute(child)))
            || (removed && (watches[child] != nil || Self.covers(unwatched, child) || Self.covers(unmounted, child)))
        if isFolder {
            // A link adds a second path to a folder, or takes one away: which path its
            // tracks are indexed under depends on the other paths, so the folder holding
            // the link is scanned (and watched again, for a folder the link was the first
            // way to).
            let isLink = mask & UInt32(IN_ISDIR) == 0
            if added {
                addTree(child)
                reportLimit()
                batch.note(isLink ? folder : child, at: now)
            } else if removed {
                forget(child)
                // A removed mount point's tracks go with it.
                for gone in unmounted where Self.isInside(gone, child) {
                    unmounted.remove(gone)
                    handler(.available(PathBytes.path(gone)))
                }
                if isLink {
                    addTree(folder)
                    reportLimit()
                }
                batch.note(isLink ? folder : child, at: now)
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

    /// The periodic rescan while the watch limit leaves folders unwatched: those folders,
    /// after trying to watch them again (watches freed since are used).
    mutating func rescanUnwatched() -> [[UInt8]] {
        let due = WatchBatch.covering(unwatched)
        if descriptor >= 0 {
            unwatched = []
            for folder in due { addTree(folder) }
        }
        if unwatched.isEmpty {
            nextFallbackScan = nil
            limitReported = false
            handler(.notice("watching all \(folders.count) folders of the music directory now"))
        } else {
            nextFallbackScan = clock.now + settings.fallbackInterval
        }
        return due
    }

    /// Narrows the unmounts just read to their mount points and hands those over.
    private mutating func settleUnmounts() {
        unmountsSettle = nil
        guard !unmountsRead.isEmpty, !rootGone else {
            unmountsRead = []
            return
        }
        for folder in WatchBatch.covering(unmountsRead) where !Self.covers(unmounted, folder) {
            for inner in unmounted where Self.isInside(inner, folder) { unmounted.remove(inner) }
            unmounted.insert(folder)
            forget(folder)
            handler(.unmounted(PathBytes.path(folder)))
            handler(.notice(
                "\(String(decoding: folder, as: UTF8.self)) was unmounted; its tracks stay in the library, and it is watched and scanned again once it holds something"))
        }
        unmountsRead = []
    }

    /// Watches again, and scans, each unmounted folder that holds something again.
    mutating func lookForRemounts() {
        for folder in unmounted where Self.holdsEntries(absolute(folder)) {
            unmounted.remove(folder)
            handler(.available(PathBytes.path(folder)))
            addTree(folder)
            reportLimit()
            batch.note(folder, at: clock.now)
            handler(.notice("\(String(decoding: folder, as: UTF8.self)) holds files again: watching and scanning it"))
        }
    }

    /// Watches `relative` and every folder below it, depth first in name order (the
    /// scanner's order), entering a folder reached again through a link only once.
    private mutating func addTree(_ relative: [UInt8]) {
        var pending = [relative]
        while let folder = pending.popLast() {
            if Self.covers(unmounted, folder) { continue }  // looked at by lookForRemounts
            let path = absolute(folder)
            guard addWatch(folder, path) else { continue }
            for name in Self.subfolders(of: path).reversed() {
                pending.append(folder.isEmpty ? name : folder + [Self.slash] + name)
            }
        }
    }

    /// False when the folder is not to be descended into: the limit is reached (it joins
    /// `unwatched`, the periodic rescan covering it and what is below it), it is gone,
    /// or it is a folder already watched under another path (a link to it, or a loop).
    private mutating func addWatch(_ relative: [UInt8], _ absolute: [UInt8]) -> Bool {
        if let limit = settings.watchLimit, folders.count >= limit, watches[relative] == nil {
            unwatched.insert(relative)
            return false
        }
        let watch = (absolute + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { inotify_add_watch(descriptor, $0.baseAddress!, Self.folderEvents) }
        }
        if watch < 0 {
            if errno == ENOSPC { unwatched.insert(relative) }
            return false
        }
        if let known = folders[watch], known != relative { return false }
        folders[watch] = relative
        watches[relative] = watch
        return true
    }

    /// Logs, once until all folders are watched, that the limit left some unwatched, and
    /// schedules their periodic rescan.
    private mutating func reportLimit() {
        guard !unwatched.isEmpty else { return }
        if nextFallbackScan == nil { nextFallbackScan = clock.now + settings.fallbackInterval }
        guard !limitReported else { return }
        limitReported = true
        let left = WatchBatch.covering(unwatched).count
        handler(.notice(
            "the inotify watch limit is reached (fs.inotify.max_user_watches): watching \(folders.count) folders; \(left) folders left unwatched (with what is below them) are rescanned every \(Self.seconds(settings.fallbackInterval)) s"))
    }

    /// Drops the watches of a folder that moved away or was deleted, and of its
    /// subfolders; a move within the directory watches them again at their new place.
    private mutating func forget(_ relative: [UInt8]) {
        for (watch, folder) in folders where Self.isInside(folder, relative) {
            inotify_rm_watch(descriptor, watch)
            folders[watch] = nil
            watches[folder] = nil
        }
        for folder in unwatched where Self.isInside(folder, relative) { unwatched.remove(folder) }
    }

    private mutating func forgetAll() {
        for watch in folders.keys { inotify_rm_watch(descriptor, watch) }
        folders = [:]
        watches = [:]
    }

    private mutating func rootCameBack() {
        rootGone = false
        forgetAll()
        unwatched = []
        limitReported = false
        addTree([])
        reportLimit()
        batch.note([], at: clock.now)
        handler(.notice("the music directory is back: watching \(folders.count) folders and scanning it"))
    }

    private func absolute(_ relative: [UInt8]) -> [UInt8] {
        relative.isEmpty ? root : root + [Self.slash] + relative
    }

    /// `folder` is `outer` or lies below it.
    private static func isInside(_ folder: [UInt8], _ outer: [UInt8]) -> Bool {
        outer.isEmpty
            || folder == outer
            || (folder.count > outer.count && folder.starts(with: outer) && folder[outer.count] == slash)
    }

    private static func covers(_ folders: Set<[UInt8]>, _ folder: [UInt8]) -> Bool {
        folders.contains { isInside(folder, $0) }
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

    private static func isFolder(_ absolute: [UInt8]) -> Bool {
        var info = stat()
        return (absolute + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &info) }
        } == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    private func isMusicFile(_ name: [UInt8]) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return false }
        let ext = name[(dot + 1)...].map { ($0 >= 0x41 && $0 <= 0x5A) ? $0 | 0x20 : $0 }
        return extensions.contains(ext)
    }

    /// The names of the folders directly in `absolute`, symbolic links to folders
    /// included (the scanner follows them), in byte order.
    private static func subfolders(of absolute: [UInt8]) -> [[UInt8]] {
        guard let handle = (absolute + [0]).withUnsafeBufferPointer({
            $0.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) }
        }) else { return [] }
        defer { closedir(handle) }
        var names: [[UInt8]] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [46] || name == [46, 46] { continue }
            let type = entry.pointee.d_type
            if type == UInt8(DT_DIR) || ((type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN)) && isFolder(absolute + [slash] + name)) {
                names.append(name)
            }
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }

    private static func seconds(_ duration: Duration) -> Int64 { duration.components.seconds }
}
