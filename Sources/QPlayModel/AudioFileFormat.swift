/// One of the audio formats qplay plays (a row of the format table, see
/// `AudioFormatTable.swift`); a track's format is what its content is, not what its name
/// says. One byte, so a million tracks in memory carry it for nothing; on the wire and
/// in the index it is the row's `wireName`.
public struct AudioFileFormat: RawRepresentable, Hashable, Sendable, CaseIterable, Codable, CustomStringConvertible {
    private let index: UInt8

    private init(index: Int) {
        self.index = UInt8(index)
    }

    public init?(rawValue: String) {
        guard let index = Self.table.firstIndex(where: { $0.wireName == rawValue }) else { return nil }
        self.init(index: index)
    }

    public var rawValue: String { row.wireName }
    public var description: String { rawValue }
    /// Everything the table says about the format.
    public var row: AudioFormatRow { Self.table[Int(index)] }

    /// Every format, in the table's order.
    public static let allCases: [AudioFileFormat] = table.indices.map(AudioFileFormat.init(index:))

    /// The formats code names (defaults, persisted state of older versions).
    public static let mp3 = AudioFileFormat(rawValue: "mp3")!
    public static let flac = AudioFileFormat(rawValue: "flac")!
    public static let vorbis = AudioFileFormat(rawValue: "vorbis")!
    public static let opus = AudioFileFormat(rawValue: "opus")!
    public static let aac = AudioFileFormat(rawValue: "aac")!
    public static let alac = AudioFileFormat(rawValue: "alac")!
    public static let wav = AudioFileFormat(rawValue: "wav")!
    public static let aiff = AudioFileFormat(rawValue: "aiff")!
    public static let wavPack = AudioFileFormat(rawValue: "wavpack")!

    /// Lower-case file name extensions the scanner reads for this format.
    public var fileExtensions: Set<String> { Set(row.fileExtensions) }

    /// Every extension of every format: what a library scans when no decoder set says
    /// otherwise.
    public static let allFileExtensions: Set<String> = Set(allCases.flatMap(\.fileExtensions))

    /// Every format's MIME types, in the table's order: MPRIS's `SupportedMimeTypes`.
    public static let allMimeTypes: [String] = allCases.flatMap(\.row.mimeTypes)

    /// How many bytes after a leading ID3v2 tag a signature sees.
    public static let headLength = 64

    /// The format a file no signature recognises is searched for (see
    /// `AudioFormatRow.searchedWhenUnrecognised`), nil when none is.
    public static let searchedWhenUnrecognised: AudioFileFormat? =
        allCases.first { $0.row.searchedWhenUnrecognised }

    /// What a file is, by its `head` (its first bytes after any leading ID3v2 tag, up to
    /// `headLength`) and, where a head cannot tell (MP4), its further bytes (`file`),
    /// among `formats`; its name (`fileExtension`, any case) only tells a file that
    /// claims a format it does not hold from one that claims none.
    public static func choose(
        head: [UInt8], file: ContentReader? = nil, fileExtension: String?, among formats: [AudioFileFormat] = allCases
    ) -> FormatChoice {
        if let format = formats.first(where: { $0.row.signature.matches(head, file: file) }) {
            return .recognised(format)
        }
        let named = fileExtension?.lowercased() ?? ""
        if let claimed = formats.first(where: { !$0.row.searchedWhenUnrecognised && $0.row.fileExtensions.contains(named) }) {
            return .misnamed(fileExtension: named, claimed: claimed)
        }
        return .unrecognised
    }

    /// The start of every refusal of a file: "not a file qplay plays (MP3, FLAC, Ogg
    /// Vorbis, Opus)", then `detail` after a colon.
    public static func notPlayed(_ detail: String? = nil, among formats: [AudioFileFormat] = allCases) -> String {
        let names = formats.map(\.row.displayName).joined(separator: ", ")
        return "not a file qplay plays (\(names))" + (detail.map { ": " + $0 } ?? "")
    }
}

/// What a file's first bytes and name say it is.
public enum FormatChoice: Equatable, Sendable {
    /// Its content starts as the format's files do.
    case recognised(AudioFileFormat)
    /// No signature matched, and its name claims a format whose files always start
    /// with theirs: refused (a decoder searching through junk finds false frame syncs
    /// in other data — libmpg123 played an Opus file as noise).
    case misnamed(fileExtension: String, claimed: AudioFileFormat)
    /// No signature matched and the name claims no such format: only a search (for
    /// `AudioFileFormat.searchedWhenUnrecognised`) may still find audio.
    case unrecognised

    /// The refusal of a misnamed file: "named .flac, but no flac audio".
    public static func misnamedDetail(fileExtension: String, claimed: AudioFileFormat) -> String {
        "named .\(fileExtension), but no \(claimed.rawValue) audio"
    }
}
