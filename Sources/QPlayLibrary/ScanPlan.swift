import Foundation
import QPlayModel

/// What a scan has to do, worked out from the walk and the index before any file is
/// read: which files to read, which are unchanged, which an earlier scan skipped and
/// remembered (unchanged since: neither read nor reported again), which are not regular
/// files, and which tracks and remembered skips are gone.
struct ScanPlan {
    /// A FIFO, socket or device with a music name: skipped without being opened.
    struct SpecialFile {
        var relativePath: [UInt8]
        var entry: MusicFileWalker.Entry
        var kind: String
        var knownID: TrackID?
    }

    var jobs: [ParseJob] = []
    var unchanged = 0
    var skippedBefore = 0
    var specialFiles: [SpecialFile] = []
    /// Indexed tracks the walk did not find.
    var vanished: [TrackID] = []
    /// Remembered skips the walk did not find.
    var forgotten: [[UInt8]] = []

    /// `prefix`: relative path bytes of the scanned folder + "/" (empty for the whole
    /// directory); nothing outside it is vanished. `protectedPrefixes`: folders whose
    /// contents are kept: they could not be read, or their disk is unmounted.
    init(
        found: [(relative: [UInt8], entry: MusicFileWalker.Entry)], known: [Data: KnownFile],
        remembered: [Data: SkippedFile], prefix: [UInt8], protectedPrefixes: [[UInt8]]
    ) {
        var seenKnown = Set<Data>()
        var seenSkips = Set<Data>()
        for (relative, entry) in found {
            let key = Data(relative)
            let old = known[key]
            if old != nil { seenKnown.insert(key) }
            let skip = remembered[key]
            if let skip {
                seenSkips.insert(key)
                if old == nil && skip.matches(size: entry.size, modificationTime: entry.modificationTime) {
                    skippedBefore += 1
                    continue
                }
            }
            if let kind = entry.special {
                specialFiles.append(SpecialFile(relativePath: relative, entry: entry, kind: kind, knownID: old?.id))
                continue
            }
            if let old, old.size == entry.size && old.modificationTime == entry.modificationTime {
                unchanged += 1
                continue
            }
            jobs.append(
                ParseJob(
                    absolutePath: entry.pathBytes, relativePath: relative, size: entry.size,
                    modificationTime: entry.modificationTime, knownID: old?.id, wasSkipped: skip != nil))
        }
        func isGone(_ key: Data) -> Bool {
            key.starts(with: prefix)
                && !protectedPrefixes.contains { folder in
                    key.starts(with: folder)
                        && (key.count == folder.count || key[key.startIndex + folder.count] == UInt8(ascii: "/"))
                }
        }
        for (key, file) in known where !seenKnown.contains(key) && isGone(key) {
            vanished.append(file.id)
        }
        for key in remembered.keys where !seenSkips.contains(key) && isGone(key) {
            forgotten.append(Array(key))
        }
    }
}
