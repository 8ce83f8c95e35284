import Foundation
import GRDB
import QPlayModel
import Synchronization
import SystemPackage

/// Every track of the index in memory, compactly, **stored in the library order**, so a
/// query is a set of row positions ("ranks") and its result is those rows read in
/// ascending order: no SQL sort, no row decoding; each result's path and title are
/// built from packed bytes (one allocation for the path, one for a title longer than
/// 15 bytes).
///
/// Filled from one snapshot of the database (`SearchTable+Loading`) and never changed:
/// `generation` is the `library_info` write counter of that snapshot, and the index
/// loads a new table when the counter moves. About 93 bytes a track (measured resident:
/// 9.3 MB at 100,000 tracks, 1.9 MB at 20,000): a 40-byte row; the folded title, title
/// and file name in one run of bytes (`RowTexts`, ~33 bytes with its offset: the title
/// is mostly an upper-case mask over the folded title, the file name mostly stored
/// without the title it contains); id → rank in ~4.4 bytes (`IDRanks`); and, once per
/// album rather than per track, a `Group` (folder, tag texts, year, disc, format).
///
/// Predicates (`SearchTable+Matching`): titles are searched through the FTS5 trigram
/// table (3+ characters) or by scanning the folded titles (1–2 characters,
/// `equals`); artist, album, album artist and genre are tested once per distinct text;
/// paths go to SQL (`instr` over `f_path`, which is not kept in memory).
final class SearchTable: Sendable {
    /// One track's own values, in narrow fields (widest first: no padding, 40 bytes).
    /// A row whose numbers do not fit (or equal a field's `absent` marker) is an
    /// exception, kept whole in `exceptions`.
    struct Row: Sendable {
        var id: Int64
        var duration: Double
        var modificationTime: Int64
        var fileSize: UInt32
        /// Index into `groups`.
        var group: UInt32
        /// Index into `gains`; 0 is "no ReplayGain values".
        var replayGain: UInt32
        var bitrate: UInt16
        var trackNumber: Int16

        static let absent = Int16.min
    }

    /// What the tracks of one album usually have in common, stored once: ~10 tracks
    /// share each group, so a row carries one index instead of 29 bytes.
    struct Group: Hashable, Sendable {
        /// Where the folder is in `directories`.
        var directoryOffset: UInt32
        /// Indexes into `tags` / `foldedTags`.
        var artist: UInt32
        var album: UInt32
        var albumArtist: UInt32
        var genre: UInt32
        var sampleRate: UInt32
        var year: Int16
        var discNumber: Int16
        var directoryLength: UInt16
        var channels: UInt8
        /// Index into `AudioFileFormat.allCases`.
        var format: UInt8
        /// 0: none.
        var bitsPerSample: UInt8
    }

    let generation: Int64
    /// Rows in the library order (docs/BEHAVIOUR.md, Queries and their order); a row's position is its rank.
    let rows: [Row]
    let groups: [Group]
    /// Every distinct folder, end to end. A path is its group's folder (up to and
    /// including the last "/", or nothing) followed by the row's file name: the exact
    /// bytes, which need not be UTF-8.
    let directories: [UInt8]
    /// By rank: `f_title` (what title predicates compare), title and file name.
    let texts: RowTexts
    /// Distinct tag texts (nil: no tag) and, at the same index, their folded form.
    let tags: [String?]
    let foldedTags: PackedBytes
    let gains: [ReplayGain]
    let idRanks: IDRanks
    /// Rows whose numbers do not fit `Row` and `Group`, by rank.
    let exceptions: [Int32: Track]
    /// Room for any title (the decoding buffer of `tracks(atRanks:)`).
    let longestTitle: Int
    /// Built at the first lookup by path (a playlist's load, the stored queue's restore).
    private let lookupByPath = Mutex<PathLookup?>(nil)

    init(
        generation: Int64, rows: [Row], groups: [Group], directories: [UInt8], texts: RowTexts, tags: [String?],
        foldedTags: PackedBytes, gains: [ReplayGain], idRanks: IDRanks, exceptions: [Int32: Track],
        longestTitle: Int
    ) {
        self.generation = generation
        self.rows = rows
        self.groups = groups
        self.directories = directories
        self.texts = texts
        self.tags = tags
        self.foldedTags = foldedTags
        self.gains = gains
        self.idRanks = idRanks
        self.exceptions = exceptions
        self.longestTitle = longestTitle
    }

    var count: Int { rows.count }

    /// Path → rank, built on first use.
    var pathLookup: PathLookup {
        lookupByPath.withLock { built in
            if let built { return built }
            let lookup = PathLookup(self)
            built = lookup
            return lookup
        }
    }

    /// The rank of the track with this id, if the table holds it.
    func rank(of id: Int64) -> Int? { idRanks.rank(of: id) }

    /// The tracks at `ranks` (at most `capacity` of them), in that order.
    func tracks(atRanks ranks: some Sequence<Int>, reserving capacity: Int) -> [Track] {
        [Track](unsafeUninitializedCapacity: capacity) { result, built in
            built = build(ranks, into: result)
        }
    }

    /// The tracks at `ranks`, in that order: a long list is built in two halves on two
    /// threads, each into its own part of the result (a 10,000-entry playlist, a search
    /// answering tens of thousands of tracks; building is ~1 µs a track, mostly its
    /// allocations and their page faults).
    func tracks(atRanks ranks: some RandomAccessCollection<Int>) -> [Track] {
        let count = ranks.count
        return [Track](unsafeUninitializedCapacity: count) { result, built in
            let result = result
            TwoHalves.run(count, from: Self.parallelBuild) { half in
                let start = ranks.index(ranks.startIndex, offsetBy: half.lowerBound)
                let end = ranks.index(ranks.startIndex, offsetBy: half.upperBound)
                _ = build(ranks[start..<end], into: UnsafeMutableBufferPointer(rebasing: result[half]))
            }
            built = count
        }
    }

    /// Below this many, one thread builds or looks up: handing half to another costs
    /// more than it saves.
    static let parallelBuild = 2_000

    /// Builds the tracks at `ranks` (at most `result.count`) at the start of `result`;
    /// answers how many.
    ///
    /// Ranks are taken in batches, and each batch's rows, their groups and where their
    /// texts are, are read in loops of their own: the cache misses of a batch overlap
    /// instead of queuing one after another behind each result's allocations. Tracks
    /// are built in place in the result (`TrackSlot`).
    private func build(_ ranks: some Sequence<Int>, into result: UnsafeMutableBufferPointer<Track>) -> Int {
        let batchSize = 64
        let batchRanks = UnsafeMutablePointer<Int>.allocate(capacity: batchSize)
        let batchRows = UnsafeMutablePointer<Row>.allocate(capacity: batchSize)
        let batchGroups = UnsafeMutablePointer<Group>.allocate(capacity: batchSize)
        let batchTexts = UnsafeMutablePointer<RowTexts.View.Location>.allocate(capacity: batchSize)
        let titleBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(longestTitle, 1))
        defer {
            batchRanks.deallocate()
            batchRows.deallocate()
            batchGroups.deallocate()
            batchTexts.deallocate()
            titleBuffer.deallocate()
        }
        var iterator = ranks.makeIterator()
        var built = 0
        rows.withUnsafeBufferPointer { rows in
            groups.withUnsafeBufferPointer { groups in
                tags.withUnsafeBufferPointer { tags in
                    directories.withUnsafeBufferPointer { directories in
                        texts.withView { texts in
                            while true {
                                var count = 0
                                while count < batchSize, let rank = iterator.next() {
                                    batchRanks[count] = rank
                                    count += 1
                                }
                                if count == 0 { break }
                                precondition(built + count <= result.count, "more ranks than capacity")
                                for i in 0..<count { batchRows[i] = rows[batchRanks[i]] }
                                for i in 0..<count { batchGroups[i] = groups[Int(batchRows[i].group)] }
                                for i in 0..<count { batchTexts[i] = texts.locate(batchRanks[i]) }
                                for i in 0..<count {
                                    let slot = result.baseAddress! + built
                                    if !exceptions.isEmpty, let track = exceptions[Int32(batchRanks[i])] {
                                        slot.initialize(to: track)
                                    } else {
                                        initializeTrack(
                                            slot, batchRows[i], batchGroups[i],
                                            title: texts.title(batchTexts[i], into: titleBuffer), tags, directories)
                                    }
                                    built += 1
                                }
                            }
                        }
                    }
                }
            }
        }
        return built
    }

    private func initializeTrack(
        _ slot: UnsafeMutablePointer<Track>, _ row: Row, _ group: Group,
        title encoded: (title: UnsafeBufferPointer<UInt8>, name: UnsafeBufferPointer<UInt8>),
        _ tags: UnsafeBufferPointer<String?>, _ directories: UnsafeBufferPointer<UInt8>
    ) {
        let (title, name) = encoded
        let start = Int(group.directoryOffset)
        let directory = UnsafeBufferPointer(rebasing: directories[start..<(start + Int(group.directoryLength))])
        let path = FilePathBuilder.path(length: directory.count + RowTexts.nameLength(name, titleLength: title.count)) {
            destination in
            if let base = directory.baseAddress { destination.update(from: base, count: directory.count) }
            RowTexts.writeName(name, title: title, to: destination + directory.count)
        }
        TrackSlot.initialize(
            slot, id: row.id, path: path, title: String(decoding: title, as: UTF8.self),
            artist: tags[Int(group.artist)], album: tags[Int(group.album)],
            albumArtist: tags[Int(group.albumArtist)], genre: tags[Int(group.genre)],
            trackNumber: Self.number(row.trackNumber), discNumber: Self.number(group.discNumber),
            year: Self.number(group.year), duration: row.duration, bitrateKbps: Int(row.bitrate),
            sampleRate: Int(group.sampleRate), channels: Int(group.channels),
            format: AudioFileFormat.allCases[Int(group.format)],
            bitsPerSample: group.bitsPerSample == 0 ? nil : Int(group.bitsPerSample),
            replayGain: gains[Int(row.replayGain)], fileSize: Int64(row.fileSize),
            modificationTime: row.modificationTime)
    }

    private static func number(_ value: Int16) -> Int? {
        value == Row.absent ? nil : Int(value)
    }
}
