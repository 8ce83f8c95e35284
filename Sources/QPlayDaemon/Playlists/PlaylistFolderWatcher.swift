import Foundation
import Logging
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Watches the playlist folder (inotify, the folder alone: playlists are its files) so
/// that a playlist another program writes, MPD say, raises the `playlists` event as
/// qplayd's own changes do. Events are gathered for a moment, then the store compares
/// the folder with what it last saw: its own writes are already known and raise
/// nothing twice. The folder is made when missing, so it can be watched from the start.
/// The thread lives as long as qplayd.
final class PlaylistFolderWatcher: Sendable {
    private let store: PlaylistStore
    private let log: Logger

    init(store: PlaylistStore, log: Logger) {
        self.store = store
        self.log = log
    }

    /// Starts watching; false (and a log line) when the folder cannot be made or watched.
    @discardableResult
    func start() -> Bool {
        let folder = store.folder.string
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            log.warning("cannot make the playlist folder \(folder): \(error.localizedDescription); it is not watched")
            return false
        }
        let descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else {
            log.warning("cannot watch the playlist folder \(folder): \(String(cString: strerror(errno)))")
            return false
        }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE | IN_ATTRIB)
        guard inotify_add_watch(descriptor, folder, mask) >= 0 else {
            log.warning("cannot watch the playlist folder \(folder): \(String(cString: strerror(errno)))")
            close(descriptor)
            return false
        }
        // What is there now is the starting point, not a change.
        store.folderMayHaveChanged()
        let store = self.store
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                // A program writing a playlist makes several events; look once they settle.
                var pending = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                while poll(&pending, 1, 100) > 0 {
                    let more = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if more <= 0 { break }
                }
                store.folderMayHaveChanged()
            }
        }
        thread.name = "qplayd playlist folder"
        thread.start()
        return true
    }
}
