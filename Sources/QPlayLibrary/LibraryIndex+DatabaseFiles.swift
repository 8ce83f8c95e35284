import Foundation
import GRDB
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// What qplayd does with its SQLite files before and when opening them: they hold the
/// user's library and queue, so they are private to the user (0600; SQLite gives the
/// -wal and -shm files the database's mode), and a file that is not a database is moved
/// aside, never deleted or written over.
public enum DatabaseFiles {
    /// Creates `path` empty with mode 0600 when it does not exist, and tightens an
    /// existing one (and its -wal/-shm) that others may read.
    public static func makePrivate(_ path: FilePath) {
        let fd = open(path.string, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd >= 0 {
            close(fd)
            return
        }
        for suffix in ["", "-wal", "-shm"] {
            var info = stat()
            let file = path.string + suffix
            if lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid(),
                info.st_mode & 0o077 != 0
            {
                chmod(file, 0o600)
            }
        }
    }

    /// Renames `path` and its -wal/-shm files to `PATH.LABEL-YYYYMMDDTHHMMSSZ` and returns
    /// the new name of the database file.
    @discardableResult
    public static func moveAside(_ path: FilePath, label: String) throws -> FilePath {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        var aside = FilePath("\(path.string).\(label)-\(formatter.string(from: Date()))")
        var attempt = 1
        while access(aside.string, F_OK) == 0 {
            attempt += 1
            aside = FilePath("\(path.string).\(label)-\(formatter.string(from: Date()))-\(attempt)")
        }
        guard rename(path.string, aside.string) == 0 else {
            throw Errno(rawValue: errno)
        }
        for suffix in ["-wal", "-shm"] {
            _ = rename(path.string + suffix, aside.string + suffix)
        }
        return aside
    }

    /// True for the errors of a file that is not (or no longer) a usable database.
    public static func isCorruption(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// True for the errors of a disk that cannot take a write now (full, read-only, I/O
    /// error, quota): the data is sound, the storage is not.
    public static func isStorageFailure(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return [.SQLITE_FULL, .SQLITE_READONLY, .SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_PERM]
            .contains(error.resultCode)
    }

    /// "database or disk is full (SQLite error 13)": SQLite's reason without the SQL text.
    public static func reason(_ error: any Error) -> String {
        guard let error = error as? DatabaseError else { return "\(error)" }
        let message = error.message ?? "\(error.resultCode)"
        return "\(message) (SQLite error \(error.extendedResultCode.rawValue))"
    }
}

extension LibraryIndex {
    /// Opens the index at `databasePath` like `init(databasePath:)`, but a file that is
    /// not a database is moved aside (`library.sqlite.corrupt-TIMESTAMP`) and an empty
    /// index is created in its place, to be filled by the next scan. Returns where the
    /// damaged file went, or nil.
    public static func openReplacingCorrupt(databasePath: FilePath) throws -> (LibraryIndex, movedAside: FilePath?) {
        DatabaseFiles.makePrivate(databasePath)
        do {
            return (try LibraryIndex(databasePath: databasePath), nil)
        } catch where DatabaseFiles.isCorruption(error) {
            let aside = try DatabaseFiles.moveAside(databasePath, label: "corrupt")
            DatabaseFiles.makePrivate(databasePath)
            return (try LibraryIndex(databasePath: databasePath), aside)
        }
    }
}
