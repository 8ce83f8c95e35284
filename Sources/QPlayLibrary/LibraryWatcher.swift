import Foundation
import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Watches every folder of the music directory with inotify on a thread of its own and
/// asks its owner for incremental scans of just the folders that changed, in batches
/// (see `WatchBatch`). When the kernel's watch limit runs out it keeps the watches it
/// has and asks for a rescan of the folders left unwatched every `fallbackInterval`.
/// A disk unmounted below the music directory is reported, so that scans keep its
/// tracks, and watched again once it is back. Nothing here blocks audio or the
/// servers: the thread only reads events and hands folder lists over.
public final class LibraryWatcher: Sendable {
    public struct Settings: Sendable {
        /// A batch is handed over once no change came for this long…
        public var quietPeriod: Duration = .milliseconds(500)
        /// …or this long after its first change, whichever is first.
        public var cap: Duration = .seconds(2)
        /// The most folders given a watch; nil: as many as the kernel allows. Lowering it
        /// reproduces a full watch table (ENOSPC) without root.
        public var watchLimit: Int?
        /// How often the folders left without a watch are rescanned.
        public var fallbackInterval: Duration = .seconds(300)

        public init() {}
    }

    /// What the watcher asks of its owner, from the watcher's thread.
    public enum Request: Sendable {
        /// Scan these folders (relative to the music directory; nil: all of it).
        case scan([FilePath?])
        /// Keep the indexed tracks below this folder through scans: its file system was
        /// unmounted (the folder left behind is an empty mount point).
        case unmounted(FilePath)
        /// Scans may drop tracks below this folder again: it was mounted again, or removed.
        case available(FilePath)
        /// A line for the log: watching started, the watch limit was reached, the music
        /// directory or a disk in it went away.
        case notice(String)
    }

    private let musicDirectory: FilePath
    private let extensions: Set<String>
    private let settings: Settings
    private let handler: @Sendable (Request) -> Void
    private let stopRequested = Atomic<Bool>(false)
    /// A pipe that `stop` writes to, so that the thread can sleep in `poll` for as long
    /// as nothing is pending instead of waking up to look for a stop.
    private let wakePipe: (read: Int32, write: Int32)

    public init(
        musicDirectory: FilePath, extensions: Set<String>, settings: Settings = Settings(),
        handler: @escaping @Sendable (Request) -> Void
    ) {
        self.musicDirectory = musicDirectory
        self.extensions = extensions
        self.settings = settings
        self.handler = handler
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        }
        wakePipe = (ends[0], ends[1])
    }

    deinit {
        if wakePipe.read >= 0 { close(wakePipe.read) }
        if wakePipe.write >= 0 { close(wakePipe.write) }
    }

    public func start() {
        let root = PathBytes.bytes(musicDirectory)
        let extensions = extensions
        let settings = settings
        let handler = handler
        let thread = Thread { [self] in
            var loop = WatchLoop(
                root: root, extensions: extensions, settings: settings, wakeDescriptor: wakePipe.read, handler: handler)
            loop.run { self.stopRequested.load(ordering: .relaxed) }
        }
        thread.name = "qplay-watch"
        thread.start()
    }

    /// Asks the thread to end, waking it.
    public func stop() {
        stopRequested.store(true, ordering: .relaxed)
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
    }
}
