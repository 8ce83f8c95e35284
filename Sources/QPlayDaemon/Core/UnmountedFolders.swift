import Synchronization
import SystemPackage

/// The folders of the music directory whose disk the watcher saw unmounted: every scan
/// keeps the tracks indexed below them until they are mounted again or removed, so an
/// unmounted disk purges nothing. Known from the watcher's events only (not across a
/// restart of the daemon).
final class UnmountedFolders: Sendable {
    private let folders = Mutex<Set<FilePath>>([])

    func insert(_ folder: FilePath) {
        folders.withLock { _ = $0.insert(folder) }
    }

    /// Drops `folder` and any folder below it.
    func remove(_ folder: FilePath) {
        folders.withLock { set in
            set = set.filter { !$0.starts(with: folder) }
        }
    }

    var current: [FilePath] {
        folders.withLock { Array($0) }
    }
}
