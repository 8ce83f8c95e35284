import QPlayLibrary
import SystemPackage

extension LibraryService {
    /// Starts watching the music directory: each batch of changed folders becomes
    /// incremental scans of those folders, queued like `update` (each with its `scan`
    /// events). A folder that is gone and held nothing indexed needs no scan. A disk
    /// unmounted below the music directory keeps its tracks through every scan until it
    /// is back (`UnmountedFolders`).
    nonisolated func watch(_ configuration: DaemonConfiguration) -> LibraryWatcher {
        var settings = LibraryWatcher.Settings()
        settings.watchLimit = configuration.watchLimit
        settings.fallbackInterval = configuration.watchRescan
        let log = self.log
        let watcher = LibraryWatcher(
            musicDirectory: musicDirectory, extensions: scanner.extensions, settings: settings
        ) { [self] request in
            switch request {
            case .notice(let text):
                log.notice("\(text)")
            case .unmounted(let folder):
                unmounted.insert(folder)
            case .available(let folder):
                unmounted.remove(folder)
            case .scan(let folders):
                Task {
                    for folder in folders {
                        if let folder, (try? checkScanTarget(folder)) == nil { continue }
                        _ = await startScan(subpath: folder)
                    }
                }
            }
        }
        watcher.start()
        return watcher
    }
}
