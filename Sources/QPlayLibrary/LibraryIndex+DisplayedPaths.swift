import Foundation
import GRDB
import QPlayModel
import SystemPackage

extension LibraryIndex {
    /// The tracks whose path, shown with U+FFFD for bytes that are not UTF-8 (as the wire
    /// and `Track.path.string` show it), is `displayed`. A name that is not UTF-8 can only
    /// be named by that rendering; several files may share it.
    public func tracks(displayedPath displayed: String) throws -> [Track] {
        // Bytes that are not UTF-8 always show as U+FFFD: without one, only the exact
        // UTF-8 bytes show as `displayed`.
        guard displayed.unicodeScalars.contains("\u{FFFD}") else {
            return try tracks(paths: [FilePath(displayed)]).compactMap { $0 }
        }
        // Candidates hold the longest run of the text between replacement characters
        // (its bytes are in the path as they are); the rendering decides.
        let longestRun = displayed.split(separator: "\u{FFFD}", omittingEmptySubsequences: true)
            .max { $0.utf8.count < $1.utf8.count }
        let needle = Data(longestRun.map { Array($0.utf8) } ?? [])
        return try pool.read { db in
            let cursor = try Row.fetchCursor(
                db, sql: "SELECT \(TrackRow.selection) FROM track WHERE instr(path, ?) > 0",
                arguments: [needle])
            var matches: [Track] = []
            while let row = try cursor.next() {
                let track = TrackRow.track(from: row)
                if track.path.string == displayed { matches.append(track) }
            }
            return matches
        }
    }
}
