/// The song tags qplay has data for, spelt as MPD spells them.
public enum MPDTag: String, Sendable, CaseIterable {
    case artist = "Artist"
    case album = "Album"
    case albumArtist = "AlbumArtist"
    case title = "Title"
    case track = "Track"
    case disc = "Disc"
    case date = "Date"
    case genre = "Genre"

    /// MPD looks tag names up without regard to case (`artist`, `ARTIST`).
    public static func named(_ name: String) -> MPDTag? {
        let lowered = asciiLowercased(name)
        return allCases.first { asciiLowercased($0.rawValue) == lowered }
    }
}

/// MPD folds ASCII letters only (strcasecmp).
func asciiLowercased(_ text: String) -> String {
    String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
}
