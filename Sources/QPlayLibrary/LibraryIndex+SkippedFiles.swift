import Foundation
import GRDB
import SystemPackage

extension LibraryIndex {
    /// Every remembered skipped file, in path byte order.
    public func skippedFiles() throws -> [SkippedFile] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT path, file_size, mtime, reason FROM skipped_file ORDER BY path")
                .map { row in
                    let path: Data = row[0]
                    return SkippedFile(pathBytes: Array(path), size: row[1], modificationTime: row[2], reason: row[3])
                }
        }
    }

    /// Remembered skipped files by their relative path bytes.
    func rememberedSkips() throws -> [Data: SkippedFile] {
        var byPath: [Data: SkippedFile] = [:]
        for file in try skippedFiles() { byPath[Data(file.pathBytes)] = file }
        return byPath
    }

    /// Whether the index holds a track or a remembered skip at `path` (relative, exact
    /// bytes) or below it as a folder.
    public func holdsEntries(at path: FilePath) throws -> Bool {
        let bytes = PathBytes.bytes(path)
        let exact = Data(bytes)
        let below = Data(bytes + [UInt8(ascii: "/")])
        return try pool.read { db in
            for table in ["track", "skipped_file"] {
                let found = try Bool.fetchOne(
                    db,
                    sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE path = ? OR substr(path, 1, ?) = ?)",
                    arguments: [exact, below.count, below]) ?? false
                if found { return true }
            }
            return false
        }
    }
}
