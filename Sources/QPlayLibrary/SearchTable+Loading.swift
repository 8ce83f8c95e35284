import Foundation
import GRDB
import GRDBSQLite
import SystemPackage

extension SearchTable {
    /// Reads every track of `db`'s current snapshot (call it inside a read transaction,
    /// with `generation` read in the same one) and sorts the rows in SPEC §2 order.
    ///
    /// Rows are read in rowid order straight from the SQLite statement (no `Row`, no
    /// `String` per column; tag texts are interned, and consecutive rows — one album's
    /// tracks — usually repeat them, which a byte comparison with the previous row
    /// catches before any hashing). The sort happens here, in Swift, with the exact
    /// comparison SQLite's `ORDER BY` makes (BINARY collation: memcmp, then length), so
    /// SQLite needs no 100,000-row sorter.
    static func load(_ db: Database, generation: Int64) throws -> SearchTable {
        let rowCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM track") ?? 0
        var loader = Loader(expectedRows: rowCount)
        let statement = try db.makeStatement(
            sql: """
                SELECT id, path, title, artist, album, album_artist, genre, track_number,
                disc_number, year, duration, bitrate, sample_rate, channels, rg_track_gain,
                rg_track_peak, rg_album_gain, rg_album_peak, file_size, mtime,
                f_title, f_artist, f_album, f_album_artist, f_genre, sort_artist
                FROM track
                """)
        let handle = statement.sqliteStatement
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
            }
            loader.add(SQLiteRow(handle: handle))
        }
        return loader.finish(generation: generation)
    }
}

/// Column access on the current row of a stepped statement.
private struct SQLiteRow {
    let handle: OpaquePointer

    func bytes(_ column: Int32) -> UnsafeRawBufferPointer? {
        guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
        // Text or blob pointer first, then its length (SQLite's documented order).
        let pointer = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let pointer, count > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: pointer, count: count)
    }

    func int(_ column: Int32) -> Int64? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, column)
    }

    func double(_ column: Int32) -> Double? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_double(handle, column)
    }
}

/// Accumulates rows in rowid order, then sorts them into a `SearchTable`.
private struct Loader {
    var entries: [SearchTable.Entry] = []
    var foldedTitles: PackedBytes
    var exceptions: [Int: Track] = [:]
    /// Sort keys of each row: its sort_artist and f_album as indexes into `sortTexts`.
    var sortArtistKeys: [UInt32] = []
    var albumKeys: [UInt32] = []
    var discs: [Int64] = []
    var trackNumbers: [Int64] = []

    var tags: [String?] = [nil]
    var foldedTags = PackedBytes()
    var tagIndex: [[UInt8]: UInt32] = [[0xFF]: 0]
    var sortTexts: [[UInt8]] = []
    var sortTextIndex: [[UInt8]: UInt32] = [:]
    var gains: [ReplayGain] = [ReplayGain()]
    /// Per tag column (artist, album, album artist, genre) and sort column (sort_artist,
    /// f_album): the previous row's bytes and what they interned to. [0xFF] is no text.
    var previousTag: [(key: [UInt8], index: UInt32)] = Array(repeating: ([0xFF], 0), count: 4)
    var previousSortText: [(key: [UInt8], index: UInt32)] = Array(repeating: ([0xFF], 0), count: 2)

    init(expectedRows: Int) {
        foldedTitles = PackedBytes(reservingCapacity: expectedRows, bytes: expectedRows * 24)
        entries.reserveCapacity(expectedRows)
        foldedTags.append(EmptyCollection())  // index 0: no tag, folded ""
    }

    mutating func add(_ row: SQLiteRow) {
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        let id = row.int(0) ?? 0
        let pathBytes = row.bytes(1) ?? empty
        var tagIndexes: [UInt32] = [0, 0, 0, 0]
        for slot in 0..<4 {
            tagIndexes[slot] = internTag(
                slot: slot, original: row.bytes(Int32(3 + slot)), folded: row.bytes(Int32(21 + slot)) ?? empty)
        }
        let trackNumber = row.int(7)
        let discNumber = row.int(8)
        let year = row.int(9)
        let bitrate = row.int(11) ?? 0
        let sampleRate = row.int(12) ?? 0
        let channels = row.int(13) ?? 0
        let fileSize = row.int(18) ?? 0
        let gain = ReplayGain(
            trackGain: row.double(14), trackPeak: row.double(15), albumGain: row.double(16),
            albumPeak: row.double(17))
        let gainIndex: UInt32
        if gain == gains[0] {
            gainIndex = 0
        } else {
            // An album's tracks often share values; consecutive repeats share an entry.
            if gain != gains[gains.count - 1] { gains.append(gain) }
            gainIndex = UInt32(gains.count - 1)
        }

        func narrow(_ value: Int64?) -> Int16? {
            guard let value else { return SearchTable.Entry.absent }
            guard let small = Int16(exactly: value), small != SearchTable.Entry.absent else { return nil }
            return small
        }
        let numbers = [narrow(trackNumber), narrow(discNumber), narrow(year)]
        let fits =
            !numbers.contains(nil) && UInt16(exactly: bitrate) != nil && UInt32(exactly: sampleRate) != nil
            && UInt8(exactly: channels) != nil && UInt32(exactly: fileSize) != nil
        let entry = SearchTable.Entry(
            id: id, duration: row.double(10) ?? 0, modificationTime: row.int(19) ?? 0,
            path: PathBytes.path(pathBytes), title: String(decoding: row.bytes(2) ?? empty, as: UTF8.self),
            fileSize: UInt32(truncatingIfNeeded: fileSize), sampleRate: UInt32(truncatingIfNeeded: sampleRate),
            artist: tagIndexes[0], album: tagIndexes[1], albumArtist: tagIndexes[2], genre: tagIndexes[3],
            replayGain: gainIndex, bitrate: UInt16(truncatingIfNeeded: bitrate),
            trackNumber: numbers[0] ?? 0, discNumber: numbers[1] ?? 0, year: numbers[2] ?? 0,
            channels: UInt8(truncatingIfNeeded: channels))
        if !fits {
            exceptions[entries.count] = Track(
                id: id, path: entry.path, title: entry.title, artist: tags[Int(tagIndexes[0])],
                album: tags[Int(tagIndexes[1])], albumArtist: tags[Int(tagIndexes[2])],
                genre: tags[Int(tagIndexes[3])], trackNumber: trackNumber.map(Int.init),
                discNumber: discNumber.map(Int.init), year: year.map(Int.init), duration: entry.duration,
                bitrateKbps: Int(bitrate), sampleRate: Int(sampleRate), channels: Int(channels),
                replayGain: gain, fileSize: fileSize, modificationTime: entry.modificationTime)
        }
        entries.append(entry)
        foldedTitles.append(row.bytes(20) ?? empty)
        sortArtistKeys.append(internSortText(slot: 0, row.bytes(25)))
        albumKeys.append(internSortText(slot: 1, row.bytes(22)))
        discs.append(discNumber ?? 0)
        trackNumbers.append(trackNumber ?? 0)
    }

    /// The index of (original, folded) among the distinct tag texts.
    private mutating func internTag(slot: Int, original: UnsafeRawBufferPointer?, folded: UnsafeRawBufferPointer)
        -> UInt32
    {
        // Key: original bytes, 0xFF (never in UTF-8), folded bytes; [0xFF] + folded for no tag.
        // Compared with the previous row's key in place first: no allocation per row.
        let previous = previousTag[slot]
        let originalCount = original?.count ?? 0
        if previous.key.count == originalCount + 1 + folded.count,
            previous.key.withUnsafeBytes({ key in
                key[originalCount] == 0xFF
                    && (original.map { key[..<originalCount].elementsEqual($0) } ?? true)
                    && key[(originalCount + 1)...].elementsEqual(folded)
            })
        {
            return previous.index
        }
        var key: [UInt8] = []
        key.reserveCapacity(originalCount + folded.count + 1)
        if let original { key.append(contentsOf: original) }
        key.append(0xFF)
        key.append(contentsOf: folded)
        let index: UInt32
        if let known = tagIndex[key] {
            index = known
        } else {
            index = UInt32(tags.count)
            tags.append(original.map { String(decoding: $0, as: UTF8.self) })
            foldedTags.append(folded)
            tagIndex[key] = index
        }
        previousTag[slot] = (key, index)
        return index
    }

    private mutating func internSortText(slot: Int, _ text: UnsafeRawBufferPointer?) -> UInt32 {
        let bytes = text ?? UnsafeRawBufferPointer(start: nil, count: 0)
        if previousSortText[slot].key.elementsEqual(bytes) { return previousSortText[slot].index }
        let key = Array(bytes)
        let index: UInt32
        if let known = sortTextIndex[key] {
            index = known
        } else {
            index = UInt32(sortTexts.count)
            sortTexts.append(key)
            sortTextIndex[key] = index
        }
        previousSortText[slot] = (key, index)
        return index
    }

    /// Sorts the rows (SPEC §2: sort_artist, f_album, disc, track number, f_title, path;
    /// missing numbers as 0; texts in memcmp order) and lays them out by rank.
    consuming func finish(generation: Int64) -> SearchTable {
        // Distinct sort texts → their position in byte order, so rows compare integers.
        let textOrder = sortTexts.indices.sorted { a, b in
            sortTexts[a].withUnsafeBufferPointer { x in
                sortTexts[b].withUnsafeBufferPointer { y in PackedBytes.compare(x, y) < 0 }
            }
        }
        var textRank = [UInt32](repeating: 0, count: sortTexts.count)
        for (rank, index) in textOrder.enumerated() { textRank[index] = UInt32(rank) }
        sortTexts = []
        sortTextIndex = [:]
        tagIndex = [:]

        let count = entries.count
        var order = Array(0..<count)
        foldedTitles.bytes.withUnsafeBufferPointer { titleBytes in
            let offsets = foldedTitles.offsets
            let entries = self.entries
            order.sort { a, b in
                let artistA = textRank[Int(sortArtistKeys[a])]
                let artistB = textRank[Int(sortArtistKeys[b])]
                if artistA != artistB { return artistA < artistB }
                let albumA = textRank[Int(albumKeys[a])]
                let albumB = textRank[Int(albumKeys[b])]
                if albumA != albumB { return albumA < albumB }
                if discs[a] != discs[b] { return discs[a] < discs[b] }
                if trackNumbers[a] != trackNumbers[b] { return trackNumbers[a] < trackNumbers[b] }
                let titleOrder = PackedBytes.compare(
                    UnsafeBufferPointer(rebasing: titleBytes[offsets[a]..<offsets[a + 1]]),
                    UnsafeBufferPointer(rebasing: titleBytes[offsets[b]..<offsets[b + 1]]))
                if titleOrder != 0 { return titleOrder < 0 }
                return Self.comparePaths(entries[a].path, entries[b].path) < 0
            }
        }
        sortArtistKeys = []
        albumKeys = []
        discs = []
        trackNumbers = []

        var sortedEntries: [SearchTable.Entry] = []
        sortedEntries.reserveCapacity(count)
        var sortedFolded = PackedBytes(reservingCapacity: count, bytes: foldedTitles.bytes.count)
        var sortedExceptions: [Int32: Track] = [:]
        for (rank, row) in order.enumerated() {
            sortedEntries.append(entries[row])
            foldedTitles.withBytes(row) { sortedFolded.append(UnsafeRawBufferPointer($0)) }
            if let track = exceptions[row] { sortedExceptions[Int32(rank)] = track }
        }
        entries = []
        foldedTitles = PackedBytes()

        let byID = (0..<count).sorted { sortedEntries[$0].id < sortedEntries[$1].id }
        foldedTags.shrink()
        return SearchTable(
            generation: generation, entries: sortedEntries, foldedTitles: sortedFolded,
            tags: tags.withUnsafeBufferPointer { Array($0) }, foldedTags: foldedTags,
            gains: gains.withUnsafeBufferPointer { Array($0) },
            sortedIDs: byID.map { sortedEntries[$0].id }, ranksOfSortedIDs: byID.map { Int32($0) },
            exceptions: sortedExceptions)
    }

    /// Path BLOBs in memcmp order (only reached when everything else ties: rare, so
    /// copying the bytes out does not matter).
    private static func comparePaths(_ a: FilePath, _ b: FilePath) -> Int {
        let x = PathBytes.bytes(a)
        let y = PathBytes.bytes(b)
        return x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in PackedBytes.compare(x, y) } }
    }
}
