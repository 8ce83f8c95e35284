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
        response.field("file", track.text(of: .path))
        response.field("Last-Modified", isoDate(nanoseconds: track.modificationTime))
        if track.sampleRate > 0 {
            response.field("Format", "\(track.sampleRate):\(sampleFormat(track)):\(track.channels)")
        }
        for tag in supportedTags where tags.contains(tag) {
            if let value = value(of: tag, in: track) { response.field(tag.rawValue, value) }
        }
        response.field("Time", MPDNumber.roundedSeconds(track.duration))
        response.field("duration", MPDNumber.seconds(track.duration))
        if let position { response.field("Pos", position) }
        if let id { response.field("Id", Int(id)) }
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

    /// The sample format MPD's decoders give: FLAC's bit depth; for the lossy formats the
    /// one MPD prints (MP3 24-bit from libmad, Vorbis float, Opus 16-bit), so clients
    /// show what they would with MPD.
    private static func sampleFormat(_ track: Track) -> String {
        switch track.format {
        case .flac: track.bitsPerSample.map(String.init) ?? "16"
        case .mp3: "24"
        case .vorbis: "f"
        case .opus: "16"
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` (UTC), without Foundation's formatter: it is on the path of
    /// every song of a 5,000-entry `playlistinfo`.
    static func isoDate(nanoseconds: Int64) -> String {
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
        // One buffer of digits, not a dozen small strings joined: this was a tenth of a
        // 5,000-entry `playlistinfo`.
        var text = [UInt8]()
        text.reserveCapacity(24)
        appendDigits(year, 4, to: &text)
        text.append(UInt8(ascii: "-"))
        appendDigits(month, 2, to: &text)
        text.append(UInt8(ascii: "-"))
        appendDigits(day, 2, to: &text)
        text.append(UInt8(ascii: "T"))
        appendDigits(secondOfDay / 3600, 2, to: &text)
        text.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay / 60 % 60, 2, to: &text)
        text.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay % 60, 2, to: &text)
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// `value` in decimal, zero-padded to at least `width` digits (a minus sign first).
    private static func appendDigits(_ value: Int, _ width: Int, to text: inout [UInt8]) {
        if value < 0 { text.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var count = 1
        var rest = magnitude / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(width, count)))
        var index = text.count
        repeat {
            index -= 1
            text[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
    }
}

extension Track {
    /// Whether the title came from a tag. Without one qplay names the track after its
    /// file; the index does not keep which it was, so a title equal to the file name is
    /// taken as a tag only when the file has other tags too (MPD shows no title for an
    /// untagged file; a file tagged with nothing but its own name loses its title here).
    var hasTitleTag: Bool {
        guard !title.isEmpty else { return false }
        // Other tags first: they settle it for nearly every track without parsing the
        // path, which cost a tenth of a 5,000-entry `playlistinfo`.
        let hasOtherTags = artist != nil || album != nil || albumArtist != nil || genre != nil || year != nil
            || trackNumber != nil || discNumber != nil
        return hasOtherTags || title != path.lastComponent?.stem
    }
}
