import Foundation
import QPlayModel

/// Accumulates rows in id order (`SearchTable.load`), then sorts them into a `SearchTable`.
struct SearchTableLoader {
    typealias Row = SearchTable.Row
    typealias Group = SearchTable.Group

    var rows: [Row] = []
    var fileNames: PackedBytes
    var titles: PackedBytes
    var foldedTitles: PackedBytes
    var exceptions: [Int: Track] = [:]
    /// Sort keys of each row: its sort_artist and f_album as indexes into `sortTexts`.
    var sortArtistKeys: [UInt32] = []
    var albumKeys: [UInt32] = []
    var discs: [Int64] = []
    var trackNumbers: [Int64] = []

    /// Distinct tag texts, as bytes (their Strings are made last, in `finish`), and
    /// whether each is a tag at all (index 0: no tag).
    var tagTexts = PackedBytes()
    var tagPresent: [Bool] = [false]
    var foldedTags = PackedBytes()
    var tagIndex: [[UInt8]: UInt32] = [[0xFF]: 0]
    var sortTexts: [[UInt8]] = []
    var sortTextIndex: [[UInt8]: UInt32] = [:]
    var gains: [ReplayGain] = [ReplayGain()]
    var directories: [UInt8] = []
    /// Folder bytes → offset in `directories`.
    var directoryIndex: [[UInt8]: UInt32] = [:]
    var groups: [Group] = []
    var groupIndex: [Group: UInt32] = [:]
    var longestTitle = 0
    /// Per tag column (artist, album, album artist, genre) and sort column (sort_artist,
    /// f_album): the previous row's bytes and what they interned to. [0xFF] is no text.
    var previousTag: [(key: [UInt8], index: UInt32)] = Array(repeating: ([0xFF], 0), count: 4)
    var previousSortText: [(key: [UInt8], index: UInt32)] = Array(repeating: ([0xFF], 0), count: 2)
    /// [0xFF] is never a directory: they are empty or end with "/".
    var previousDirectory: (key: [UInt8], offset: UInt32) = ([0xFF], 0)

    init(expectedRows: Int) {
        fileNames = PackedBytes(reservingCapacity: expectedRows, bytes: expectedRows * 32)
        titles = PackedBytes(reservingCapacity: expectedRows, bytes: expectedRows * 24)
        foldedTitles = PackedBytes(reservingCapacity: expectedRows, bytes: expectedRows * 24)
        rows.reserveCapacity(expectedRows)
        foldedTags.append(EmptyCollection())  // index 0: no tag, folded ""
        tagTexts.append(EmptyCollection())
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
        let formatName = row.bytes(26).map { String(decoding: $0, as: UTF8.self) }
        let format = TrackRow.format(formatName)
        let bits = row.int(27)
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
            guard let value else { return Row.absent }
            guard let small = Int16(exactly: value), small != Row.absent else { return nil }
            return small
        }
        let numbers = [narrow(trackNumber), narrow(discNumber), narrow(year)]
        // The directory keeps the last "/": joining is then plain concatenation.
        let nameStart = pathBytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        // A path FilePath would normalize is kept whole too (`FilePathBuilder`).
        let fits =
            !numbers.contains(nil) && UInt16(exactly: bitrate) != nil && UInt32(exactly: sampleRate) != nil
            && UInt8(exactly: channels) != nil && UInt32(exactly: fileSize) != nil
            && FilePathBuilder.isNormalized(pathBytes) && UInt16(exactly: nameStart) != nil
            && (bits.map { $0 > 0 && $0 <= UInt8.max } ?? true)

        let directory = internDirectory(UnsafeRawBufferPointer(rebasing: pathBytes[..<nameStart]))
        let group = internGroup(
            Group(
                directoryOffset: directory, artist: tagIndexes[0], album: tagIndexes[1], albumArtist: tagIndexes[2],
                genre: tagIndexes[3], sampleRate: UInt32(truncatingIfNeeded: sampleRate),
                year: numbers[2] ?? 0, discNumber: numbers[1] ?? 0,
                directoryLength: UInt16(truncatingIfNeeded: nameStart), channels: UInt8(truncatingIfNeeded: channels),
                format: UInt8(AudioFileFormat.allCases.firstIndex(of: format) ?? 0),
                bitsPerSample: UInt8(truncatingIfNeeded: bits ?? 0)))
        let entry = Row(
            id: id, duration: row.double(10) ?? 0, modificationTime: row.int(19) ?? 0,
            fileSize: UInt32(truncatingIfNeeded: fileSize), group: group, replayGain: gainIndex,
            bitrate: UInt16(truncatingIfNeeded: bitrate), trackNumber: numbers[0] ?? 0)
        let title = row.bytes(2) ?? empty
        if !fits {
            exceptions[rows.count] = Track(
                id: id, path: PathBytes.path(pathBytes), title: String(decoding: title, as: UTF8.self),
                artist: tag(tagIndexes[0]), album: tag(tagIndexes[1]), albumArtist: tag(tagIndexes[2]),
                genre: tag(tagIndexes[3]),
                trackNumber: trackNumber.map(Int.init), discNumber: discNumber.map(Int.init),
                year: year.map(Int.init), duration: entry.duration, bitrateKbps: Int(bitrate),
                sampleRate: Int(sampleRate), channels: Int(channels), format: format,
                bitsPerSample: bits.map(Int.init), replayGain: gain, fileSize: fileSize,
                modificationTime: entry.modificationTime)
        }
        rows.append(entry)
        fileNames.append(UnsafeRawBufferPointer(rebasing: pathBytes[nameStart...]))
        longestTitle = max(longestTitle, title.count)
        titles.append(title)
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
            index = UInt32(tagPresent.count)
            tagTexts.append(original ?? UnsafeRawBufferPointer(start: nil, count: 0))
            tagPresent.append(original != nil)
            foldedTags.append(folded)
            tagIndex[key] = index
        }
        previousTag[slot] = (key, index)
        return index
    }

    private func tag(_ index: UInt32) -> String? {
        guard tagPresent[Int(index)] else { return nil }
        return tagTexts.withBytes(Int(index)) { String(decoding: $0, as: UTF8.self) }
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

    /// The offset of these folder bytes in `directories`.
    private mutating func internDirectory(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        if previousDirectory.key.elementsEqual(bytes) { return previousDirectory.offset }
        let key = Array(bytes)
        let offset: UInt32
        if let known = directoryIndex[key] {
            offset = known
        } else {
            guard let end = UInt32(exactly: directories.count) else { preconditionFailure("folders over 4 GB") }
            offset = end
            directories.append(contentsOf: bytes)
            directoryIndex[key] = offset
        }
        previousDirectory = (key, offset)
        return offset
    }

    private mutating func internGroup(_ group: Group) -> UInt32 {
        if let last = groups.last, last == group { return UInt32(groups.count - 1) }
        if let known = groupIndex[group] { return known }
        let index = UInt32(groups.count)
        groups.append(group)
        groupIndex[group] = index
        return index
    }

    /// Sorts the rows (the library order: sort_artist, f_album, disc, track number, f_title, path;
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
        directoryIndex = [:]
        groupIndex = [:]

        let count = rows.count
        var order = Array(0..<count)
        foldedTitles.bytes.withUnsafeBufferPointer { titleBytes in
            let offsets = foldedTitles.offsets
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
                    UnsafeBufferPointer(rebasing: titleBytes[Int(offsets[a])..<Int(offsets[a + 1])]),
                    UnsafeBufferPointer(rebasing: titleBytes[Int(offsets[b])..<Int(offsets[b + 1])]))
                if titleOrder != 0 { return titleOrder < 0 }
                return comparePaths(a, b) < 0
            }
        }
        sortArtistKeys = []
        albumKeys = []
        discs = []
        trackNumbers = []

        var sortedRows: [Row] = []
        sortedRows.reserveCapacity(count)
        var texts = RowTexts(
            reservingCapacity: count, bytes: foldedTitles.bytes.count + fileNames.bytes.count / 2 + count * 6)
        var sortedExceptions: [Int32: Track] = [:]
        var rankOfRow = [Int32](repeating: 0, count: count)
        for (rank, row) in order.enumerated() {
            sortedRows.append(rows[row])
            titles.withBytes(row) { title in
                foldedTitles.withBytes(row) { folded in
                    fileNames.withBytes(row) { name in texts.append(title: title, folded: folded, name: name) }
                }
            }
            if let track = exceptions[row] { sortedExceptions[Int32(rank)] = track }
            rankOfRow[row] = Int32(rank)
        }
        fileNames = PackedBytes()
        titles = PackedBytes()
        foldedTitles = PackedBytes()
        // Rows arrived in id order (ORDER BY id).
        let idRanks = IDRanks(ascendingIDs: rows.map(\.id), ranks: rankOfRow)
        rows = []

        foldedTags.shrink()
        texts.shrink()
        return SearchTable(
            generation: generation, rows: sortedRows, groups: groups.withUnsafeBufferPointer { Array($0) },
            directories: directories.withUnsafeBufferPointer { Array($0) }, texts: texts, tags: tagStrings(),
            foldedTags: foldedTags,
            gains: gains.withUnsafeBufferPointer { Array($0) }, idRanks: idRanks,
            exceptions: sortedExceptions, longestTitle: longestTitle)
    }

    /// The tag texts as Strings, which every result shares. Made last, when the loader's
    /// scratch memory is free: ~15,000 small allocations in a row then fill a few pages,
    /// where strings made one by one while loading ended up scattered among the scratch
    /// allocations, keeping ~1 MB of half-empty pages resident.
    private func tagStrings() -> [String?] {
        var strings: [String?] = []
        strings.reserveCapacity(tagPresent.count)
        for index in tagPresent.indices { strings.append(tag(UInt32(index))) }
        return strings
    }

    /// The paths of two rows (in load order) in memcmp order. Only reached when
    /// everything else ties: rare, so copying the bytes out does not matter.
    private func comparePaths(_ a: Int, _ b: Int) -> Int {
        func path(_ row: Int) -> [UInt8] {
            let group = groups[Int(rows[row].group)]
            let start = Int(group.directoryOffset)
            let directory = directories[start..<(start + Int(group.directoryLength))]
            return Array(directory) + fileNames.bytes[fileNames.range(row)]
        }
        let x = path(a)
        let y = path(b)
        return x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in PackedBytes.compare(x, y) } }
    }
}
