#if canImport(Glibc)
import Glibc
#endif

/// The watcher thread's body and state: what it makes of inotify's events. It keeps
/// the folders the watch limit left unwatched or whose disk was unmounted, and the
/// batch being gathered; the watches themselves are `InotifyWatches`, the reads of the
/// disk `FolderTree`. Lives on that thread alone.
struct WatchLoop {
    private let root: [UInt8]
    private let extensions: [[UInt8]]
    private let settings: LibraryWatcher.Settings
    private let handler: @Sendable (LibraryWatcher.Request) -> Void
    private let wakeDescriptor: Int32
    private let clock = ContinuousClock()
    private var watches: InotifyWatches
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
        self.root = root.count > 1 && root.last == FolderTree.slash ? Array(root.dropLast()) : root
        self.extensions = extensions.map { Array($0.lowercased().utf8) }
        self.settings = settings
        self.handler = handler
        self.wakeDescriptor = wakeDescriptor
        watches = InotifyWatches(limit: settings.watchLimit)
        batch = WatchBatch(quietPeriod: settings.quietPeriod, cap: settings.cap)
    }

    /// The folders with a watch, relative to the music directory.
    var watchedFolders: Set<[UInt8]> { watches.watchedFolders }

    func watch(of folder: [UInt8]) -> Int32? { watches.watch(of: folder) }

    /// Sets up inotify and watches the tree; logs how many folders are watched.
    mutating func open() {
        if let reason = watches.open() {
            handler(.notice(
                "cannot watch the music directory (\(reason)); rescanning it every \(Self.seconds(settings.fallbackInterval)) s"))
            unwatched = [[]]
            limitReported = true
            nextFallbackScan = clock.now + settings.fallbackInterval
            return
        }
        addTree([])
        if unwatched.isEmpty {
            handler(.notice("watching \(watches.count) folders of the music directory"))
        } else {
            reportLimit()
        }
    }

    mutating func close() {
        watches.close()
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
                pollfd(fd: watches.descriptor, events: Int16(POLLIN), revents: 0),
            ]
            if poll(&requests, watches.descriptor >= 0 ? 2 : 1, milliseconds) > 0 && requests[1].revents & Int16(POLLIN) != 0 {
                readEvents(into: &buffer)
            }
            if let settle = unmountsSettle, clock.now >= settle { settleUnmounts() }
            if rootGone && FolderTree.holdsEntries(root) { rootCameBack() }
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
        let events = watches.readEvents(into: &buffer)
        guard !events.isEmpty else { return }
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
            watches.dropped(watch)
            return
        }
        guard let folder = watches.folder(of: watch) else { return }
        if mask & UInt32(IN_UNMOUNT) != 0 && !folder.isEmpty {
            unmountsRead.insert(folder)
            return
        }
        if mask & (UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_UNMOUNT)) != 0 {
            // A subfolder's removal also comes as an event in its parent, scanned there.
            if folder.isEmpty && !rootGone {
                rootGone = true
                watches.forgetAll()
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
        let child = FolderTree.child(name, of: folder)
        let added = mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0
        let removed = mask & (UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM)) != 0
        // A folder, or a symbolic link to one (the scanner follows those): the link's
        // own events carry no IN_ISDIR.
        let isFolder =
            mask & UInt32(IN_ISDIR) != 0
            || (added && !isMusicFile(name) && FolderTree.isFolder(absolute(child)))
            || (removed
                && (watches.watch(of: child) != nil || FolderTree.covers(unwatched, child)
                    || FolderTree.covers(unmounted, child)))
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
                for gone in unmounted where FolderTree.isInside(gone, child) {
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
        if watches.descriptor >= 0 {
            unwatched = []
            for folder in due { addTree(folder) }
        }
        if unwatched.isEmpty {
            nextFallbackScan = nil
            limitReported = false
            handler(.notice("watching all \(watches.count) folders of the music directory now"))
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
        for folder in WatchBatch.covering(unmountsRead) where !FolderTree.covers(unmounted, folder) {
            for inner in unmounted where FolderTree.isInside(inner, folder) { unmounted.remove(inner) }
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
        for folder in unmounted where FolderTree.holdsEntries(absolute(folder)) {
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
            if FolderTree.covers(unmounted, folder) { continue }  // looked at by lookForRemounts
            let path = absolute(folder)
            // Not descended into when the limit is reached (the folder joins `unwatched`,
            // the periodic rescan covering it and what is below it), when it is gone, or
            // when it is a folder already watched under another path.
            switch watches.add(folder, at: path) {
            case .added: break
            case .noRoom:
                unwatched.insert(folder)
                continue
            case .skipped: continue
            }
            for name in FolderTree.subfolders(of: path).reversed() {
                pending.append(FolderTree.child(name, of: folder))
            }
        }
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
            "the inotify watch limit is reached (fs.inotify.max_user_watches): watching \(watches.count) folders; \(left) folders left unwatched (with what is below them) are rescanned every \(Self.seconds(settings.fallbackInterval)) s"))
    }

    /// Drops the watches of a folder that moved away or was deleted, and of its
    /// subfolders; a move within the directory watches them again at their new place.
    private mutating func forget(_ relative: [UInt8]) {
        watches.forget(relative)
        for folder in unwatched where FolderTree.isInside(folder, relative) { unwatched.remove(folder) }
    }

    private mutating func rootCameBack() {
        rootGone = false
        watches.forgetAll()
        unwatched = []
        limitReported = false
        addTree([])
        reportLimit()
        batch.note([], at: clock.now)
        handler(.notice("the music directory is back: watching \(watches.count) folders and scanning it"))
    }

    private func absolute(_ relative: [UInt8]) -> [UInt8] {
        relative.isEmpty ? root : root + [FolderTree.slash] + relative
    }

    private func isMusicFile(_ name: [UInt8]) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return false }
        let ext = name[(dot + 1)...].map { ($0 >= 0x41 && $0 <= 0x5A) ? $0 | 0x20 : $0 }
        return extensions.contains(ext)
    }

    private static func seconds(_ duration: Duration) -> Int64 { duration.components.seconds }
}
