import Foundation
import Synchronization
import SystemPackage

/// Folders of generated files made once per test process, for suites whose every test
/// copies the same fixtures: a minute of audio through sox and lame costs seconds, and
/// a serialized suite paid that in each of its tests. Callers copy a folder before
/// changing anything in it; all of them are removed when the process exits.
public enum SharedFixtures {
    private static let made = Mutex<[String: FilePath]>([:])
    private static let root: TemporaryDirectory = {
        let directory = TemporaryDirectory("qplay-shared-fixtures")
        atexit { SharedFixtures.removeAll() }
        return directory
    }()

    /// The folder for `key`, filled by `make` the first time it is asked for; `make`
    /// runs under the lock, so tests asking at once wait for one run of it.
    public static func folder(_ key: String, make: (FilePath) throws -> Void) throws -> FilePath {
        try made.withLock { folders in
            if let folder = folders[key] { return folder }
            let folder = root.appending(key)
            try? FileManager.default.removeItem(atPath: folder.string)
            try FileManager.default.createDirectory(atPath: folder.string, withIntermediateDirectories: true)
            do {
                try make(folder)
            } catch {
                try? FileManager.default.removeItem(atPath: folder.string)
                throw error
            }
            folders[key] = folder
            return folder
        }
    }

    private static func removeAll() {
        root.remove()
    }
}
