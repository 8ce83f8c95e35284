import Foundation
import GRDB
import SystemPackage

/// Every track of the index in memory, compactly, **stored in SPEC §2 order**, so a
/// query is a set of row positions ("ranks") and its result is those rows read in
/// ascending order: no SQL sort, no row decoding, no per-query string building beyond
/// each result's path and title.
///
/// Filled from one snapshot of the database (`SearchTable+Loading`) and never changed:
/// `generation` is the `library_info` write counter of that snapshot, and the index
/// loads a new table when the counter moves. About 310 bytes a track (100,000 tracks:
/// ~31 MB resident): an 88-byte row, the path's (~110 bytes) and long titles' heap
/// storage, the folded title packed in one buffer, ids for id → rank, and interned tag
/// texts (an album's tracks share one artist and one album string).
///
/// Predicates (`SearchTable+Matching`): titles are searched through the FTS5 trigram
/// table (3+ characters) or by scanning the packed folded titles (1–2 characters,
/// `equals`); artist, album, album artist and genre are tested once per distinct text;
/// paths go to SQL (`instr` over `f_path`, which is not kept in memory).
final class SearchTable: Sendable {
    /// One row. Path and title are ready-made values that every result shares (a result
    /// track costs a struct copy and a few reference counts, no allocation). Numbers in
    /// narrow fields; a row whose numbers do not fit (or equal a field's `absent`
    /// marker) is an exception, kept whole in `exceptions`.
    struct Entry: Sendable {
        var id: Int64
        var duration: Double
        var modificationTime: Int64
        var path: FilePath
        var title: String
        var fileSize: UInt32
        var sampleRate: UInt32
        /// Indexes into `tags` / `foldedTags`.
        var artist: UInt32
        var album: UInt32
        var albumArtist: UInt32
        var genre: UInt32
        /// Index into `gains`; 0 is "no ReplayGain values".
        var replayGain: UInt32
        var bitrate: UInt16
        var trackNumber: Int16
        var discNumber: Int16
        var year: Int16
        var channels: UInt8

        static let absent = Int16.min
    }

    let generation: Int64
    /// Rows in SPEC §2 order; a row's position is its rank.
    let entries: [Entry]
    /// `f_title` by rank: what title predicates compare.
    let foldedTitles: PackedBytes
    /// Distinct tag texts (nil: no tag) and, at the same index, their folded form.
    let tags: [String?]
    let foldedTags: PackedBytes
    let gains: [ReplayGain]
    /// Track ids ascending, and the rank of each: id → rank by binary search.
    let sortedIDs: [Int64]
    let ranksOfSortedIDs: [Int32]
    /// Rows whose numbers do not fit `Entry`, by rank.
    let exceptions: [Int32: Track]

    init(
        generation: Int64, entries: [Entry], foldedTitles: PackedBytes, tags: [String?],
        foldedTags: PackedBytes, gains: [ReplayGain], sortedIDs: [Int64], ranksOfSortedIDs: [Int32],
        exceptions: [Int32: Track]
    ) {
        self.generation = generation
        self.entries = entries
        self.foldedTitles = foldedTitles
        self.tags = tags
        self.foldedTags = foldedTags
        self.gains = gains
        self.sortedIDs = sortedIDs
        self.ranksOfSortedIDs = ranksOfSortedIDs
        self.exceptions = exceptions
    }

    var count: Int { entries.count }

    /// The rank of the track with this id, if the table holds it.
    func rank(of id: Int64) -> Int? {
        var low = 0
        var high = sortedIDs.count
        while low < high {
            let middle = (low + high) / 2
            if sortedIDs[middle] < id { low = middle + 1 } else { high = middle }
        }
        guard low < sortedIDs.count, sortedIDs[low] == id else { return nil }
        return Int(ranksOfSortedIDs[low])
    }

    /// The tracks at `ranks`, in that order.
    func tracks(atRanks ranks: some Sequence<Int>, reserving capacity: Int) -> [Track] {
        var result: [Track] = []
        result.reserveCapacity(capacity)
        entries.withUnsafeBufferPointer { entries in
            for rank in ranks {
                if !exceptions.isEmpty, let track = exceptions[Int32(rank)] {
                    result.append(track)
                    continue
                }
                let entry = entries[rank]
                result.append(
                    Track(
                        id: entry.id, path: entry.path, title: entry.title, artist: tags[Int(entry.artist)],
                        album: tags[Int(entry.album)], albumArtist: tags[Int(entry.albumArtist)],
                        genre: tags[Int(entry.genre)], trackNumber: Self.number(entry.trackNumber),
                        discNumber: Self.number(entry.discNumber), year: Self.number(entry.year),
                        duration: entry.duration, bitrateKbps: Int(entry.bitrate),
                        sampleRate: Int(entry.sampleRate), channels: Int(entry.channels),
                        replayGain: gains[Int(entry.replayGain)], fileSize: Int64(entry.fileSize),
                        modificationTime: entry.modificationTime))
            }
        }
        return result
    }

    private static func number(_ value: Int16) -> Int? {
        value == Entry.absent ? nil : Int(value)
    }
}
