import Foundation
import Logging
import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Watches the playlist folder (inotify, the folder alone: playlists are its files) so
/// that a playlist another program writes, MPD say, raises the `playlists` event as
/// qplayd's own changes do. Events are gathered for a moment, then the store compares
/// the folder with what it last saw: its own writes are already known and raise
/// nothing twice. The folder is made when missing, so it can be watched from the start.
/// `stop()` ends the thread and waits for it: the core calls it in its ordered
/// shutdown, before the state is saved (`CoreService`).
final class PlaylistFolderWatcher: Sendable {
    private let store: PlaylistStore
    private let log: Logger
    /// The pipe whose write end `stop()` writes to, and what the thread signals as it ends.
    private let stopping = Mutex<(wake: Int32, ended: DispatchSemaphore)?>(nil)

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
        var wake: [Int32] = [0, 0]
        guard pipe(&wake) == 0, fcntl(wake[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(wake[1], F_SETFD, FD_CLOEXEC) == 0
        else {
            log.warning("cannot watch the playlist folder \(folder): \(String(cString: strerror(errno)))")
            close(descriptor)
            return false
        }
        let ended = DispatchSemaphore(value: 0)
        stopping.withLock { $0 = (wake[1], ended) }
        // What is there now is the starting point, not a change.
        store.folderMayHaveChanged()
        let store = self.store
        let log = self.log
        let stopRead = wake[0]
        let thread = Thread {
            defer {
                close(descriptor)
                close(stopRead)
                log.info("stopped watching the playlist folder")
                ended.signal()
            }
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                var both = [
                    pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0),
                ]
                let ready = poll(&both, 2, -1)
                if ready < 0, errno == EINTR { continue }
                guard ready > 0, both[1].revents == 0 else { return }
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

    /// Ends the watching thread and returns once it has ended; nothing when not started.
    func stop() {
        guard let (wake, ended) = stopping.withLock({ state in defer { state = nil }; return state }) else { return }
        var byte: UInt8 = 1
        _ = write(wake, &byte, 1)
        ended.wait()
        close(wake)
    }
}
