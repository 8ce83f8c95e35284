#if canImport(Glibc)
import Glibc
#endif
import QPlayLibrary
import QPlayMPD
import QPlayModel

/// A song as MPD shows it (`playlistinfo`, `currentsong`, `find`, `lsinfo`): `file`
/// (relative to the music directory), `Last-Modified`, `Format`, the tags the connection
/// has enabled, `Time`, `duration`, and for queue entries `Pos` and `Id`.
enum MPDSongWriter {
    /// The tags qplay has data for, in the order songs show them.
    static let supportedTags: [MPDTag] = [.artist, .albumArtist, .title, .album, .track, .date, .genre, .disc]

    static func write(
        _ track: Track, position: Int? = nil, id: EntryID? = nil, tags: Set<MPDTag>, into response: inout MPDResponse
    ) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(320)
        write(track, position: position, id: id, tags: MPDTagMask(tags), into: &bytes)
        response.append(bytes)
    }

    /// The same into a byte buffer: a long list (`playlistinfo` of thousands) is built
    /// in one buffer, without a String per line.
    static func write(_ track: Track, position: Int?, id: EntryID?, tags: MPDTagMask, into bytes: inout [UInt8]) {
        if track.isStream { return writeStream(track, heard: nil, position: position, id: id, tags: tags, into: &bytes) }
        appendPath(of: track, &bytes)
        bytes += "Last-Modified: ".utf8
        appendISODate(nanoseconds: track.modificationTime, &bytes)
        bytes.append(0x0A)
        if track.sampleRate > 0 {
            bytes += "Format: ".utf8
            appendInteger(track.sampleRate, &bytes)
            bytes.append(UInt8(ascii: ":"))
            bytes += sampleFormat(track).utf8
            bytes.append(UInt8(ascii: ":"))
            appendInteger(track.channels, &bytes)
            bytes.append(0x0A)
        }
        if tags.contains(.artist), let artist = nonEmpty(track.artist) { field("Artist: ", artist, &bytes) }
        if tags.contains(.albumArtist), let albumArtist = nonEmpty(track.albumArtist) {
            field("AlbumArtist: ", albumArtist, &bytes)
        }
        if tags.contains(.title), track.hasTitleTag { field("Title: ", track.title, &bytes) }
        if tags.contains(.album), let album = nonEmpty(track.album) { field("Album: ", album, &bytes) }
        if tags.contains(.track), let number = track.trackNumber { integerField("Track: ", number, &bytes) }
        if tags.contains(.date), let year = track.year { integerField("Date: ", year, &bytes) }
        if tags.contains(.genre), let genre = nonEmpty(track.genre) { field("Genre: ", genre, &bytes) }
        if tags.contains(.disc), let disc = track.discNumber { integerField("Disc: ", disc, &bytes) }
        integerField("Time: ", MPDNumber.roundedSeconds(track.duration), &bytes)
        bytes += "duration: ".utf8
        bytes += MPDNumber.seconds(track.duration).utf8
        bytes.append(0x0A)
        if let position { integerField("Pos: ", position, &bytes) }
        if let id { integerField("Id: ", Int(id), &bytes) }
    }

    /// A URL entry as MPD shows a stream: its URL, then — once heard while it plays —
    /// the ICY title whole as `Title` and the station as `Name`; no modification time,
    /// format or length (it is live).
    static func writeStream(
        _ track: Track, heard: StreamNowPlaying?, position: Int?, id: EntryID?, tags: MPDTagMask,
        into bytes: inout [UInt8]
    ) {
        appendPath(of: track, &bytes)
        if tags.contains(.title), let title = heard?.wholeTitle { field("Title: ", title, &bytes) }
        if let station = heard?.station { field("Name: ", station, &bytes) }
        if let position { integerField("Pos: ", position, &bytes) }
        if let id { integerField("Id: ", Int(id), &bytes) }
    }

    /// `file: PATH`: the path's bytes as they are when they are UTF-8 (nearly always),
    /// else as the library shows them (invalid bytes as U+FFFD); a URL entry's URL as it
    /// was given (its `FilePath` holds `http:/host/…`).
    private static func appendPath(of track: Track, _ bytes: inout [UInt8]) {
        if let url = track.streamURL {
            field("file: ", url, &bytes)
            return
        }
        var plain = true
        track.path.withPlatformString { pointer in
            let count = strlen(pointer)
            pointer.withMemoryRebound(to: UInt8.self, capacity: count) { raw in
                let source = UnsafeBufferPointer(start: raw, count: count)
                // ASCII without line breaks (nearly every path) is copied as it is.
                plain = !source.contains { $0 >= 0x80 || $0 == 0x0A || $0 == 0x0D }
                if plain {
                    bytes += "file: ".utf8
                    bytes.append(contentsOf: source)
                    bytes.append(0x0A)
                }
            }
        }
        // Anything else as the library shows it: invalid UTF-8 as U+FFFD, a line break
        // as a space.
        if !plain { field("file: ", track.text(of: .path), &bytes) }
    }

    /// `key` (with its ": ") and `value` on one line: a newline in a tag becomes a space,
    /// as `MPDResponse.field` does.
    private static func field(_ key: StaticString, _ value: String, _ bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        let start = bytes.count
        bytes += value.utf8
        bytes.withUnsafeMutableBufferPointer { buffer in
            for index in start..<buffer.count where buffer[index] == 0x0A || buffer[index] == 0x0D {
                buffer[index] = 0x20
            }
        }
        bytes.append(0x0A)
    }

    private static func integerField(_ key: StaticString, _ value: Int, _ bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        appendInteger(value, &bytes)
        bytes.append(0x0A)
    }

    /// Decimal digits without a String.
    static func appendInteger(_ value: Int, _ bytes: inout [UInt8]) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendInteger(value == Int.min ? Int.max : -value, &bytes)
            return
        }
        // The digits backwards, then turned around in place.
        let start = bytes.count
        var rest = value
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10))
            rest /= 10
        } while rest > 0
        bytes.withUnsafeMutableBufferPointer { buffer in
            var low = start
            var high = buffer.count - 1
            while low < high {
                buffer.swapAt(low, high)
                low += 1
                high -= 1
            }
        }
    }

    /// A tag's text, nil when the track has none. A title is always there (qplay falls
    /// back on the file name); MPD shows none for an untagged file, and neither does this.
    static func value(of tag: MPDTag, in track: Track) -> String? {
        switch tag {
        case .artist: nonEmpty(track.artist)
        case .albumArtist: nonEmpty(track.albumArtist)
        case .title: track.hasTitleTag ? track.title : nil
        case .album: nonEmpty(track.album)
        case .track: track.trackNumber.map(String.init)
        case .date: track.year.map(String.init)
        case .genre: nonEmpty(track.genre)
        case .disc: track.discNumber.map(String.init)
        }
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    /// The sample format MPD's decoders give (the format table's `mpdSampleFormat`): the
    /// file's bit depth (FLAC); for the lossy formats the one MPD prints (MP3 24-bit
    /// from libmad, Vorbis float, Opus 16-bit), so clients show what they would with MPD.
    static func sampleFormat(_ track: Track) -> String {
        track.format.row.mpdSampleFormat ?? track.bitsPerSample.map(String.init) ?? "16"
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` (UTC), without Foundation's formatter: it is on the path of
    /// every song of a 5,000-entry `playlistinfo`.
    static func isoDate(nanoseconds: Int64) -> String {
        var bytes: [UInt8] = []
        appendISODate(nanoseconds: nanoseconds, &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func appendISODate(nanoseconds: Int64, _ bytes: inout [UInt8]) {
        let seconds = nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds + 1) / 1_000_000_000 - 1
        var days = seconds >= 0 ? seconds / 86400 : (seconds + 1) / 86400 - 1
        let secondOfDay = Int(seconds - days * 86400)
        // Howard Hinnant's days-to-civil.
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        let year = Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
        padded(year, 4, &bytes)
        bytes.append(UInt8(ascii: "-"))
        padded(month, 2, &bytes)
        bytes.append(UInt8(ascii: "-"))
        padded(day, 2, &bytes)
        bytes.append(UInt8(ascii: "T"))
        padded(secondOfDay / 3600, 2, &bytes)
        bytes.append(UInt8(ascii: ":"))
        padded(secondOfDay / 60 % 60, 2, &bytes)
        bytes.append(UInt8(ascii: ":"))
        padded(secondOfDay % 60, 2, &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    private static func padded(_ value: Int, _ width: Int, _ bytes: inout [UInt8]) {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        for _ in digits..<max(width, digits) { bytes.append(UInt8(ascii: "0")) }
        appendInteger(value, &bytes)
    }
}

/// The enabled tags as bits, for the per-song checks of long lists.
struct MPDTagMask: Sendable, Equatable {
    private var bits: UInt16 = 0

    init(_ tags: Set<MPDTag>) {
        for tag in tags { bits |= Self.bit(tag) }
    }

    func contains(_ tag: MPDTag) -> Bool { bits & Self.bit(tag) != 0 }

    private static func bit(_ tag: MPDTag) -> UInt16 {
        switch tag {
        case .artist: 1
        case .album: 2
        case .albumArtist: 4
        case .title: 8
        case .track: 16
        case .disc: 32
        case .date: 64
        case .genre: 128
        }
    }
}

extension Track {
    /// Whether the title came from a tag. Without one qplay names the track after its
    /// file; the index does not keep which it was, so a title equal to the file name is
    /// taken as a tag only when the file has other tags too (MPD shows no title for an
    /// untagged file; a file tagged with nothing but its own name loses its title here).
    var hasTitleTag: Bool {
        guard !title.isEmpty else { return false }
        // The cheap checks first: parsing the path is the dearer part of a song's fields.
        if artist != nil || album != nil || albumArtist != nil || genre != nil || year != nil || trackNumber != nil
            || discNumber != nil
        {
            return true
        }
        return title != path.lastComponent?.stem
    }
}
