/// The audio formats qplay plays; a track's format is what TagLib found in the file's
/// content, not what its name says.
public enum AudioFileFormat: String, Sendable, Hashable, CaseIterable, Codable {
    /// MPEG-1/2/2.5 audio, layer I, II or III.
    case mp3
    case flac
    /// Ogg Vorbis.
    case vorbis
    /// Ogg Opus.
    case opus

    /// Lower-case file name extensions the scanner looks at for this format. An Ogg file
    /// may hold Vorbis or Opus whatever its name; the content decides.
    public var fileExtensions: Set<String> {
        switch self {
        case .mp3: ["mp3", "mp2", "mp1"]
        case .flac: ["flac"]
        case .vorbis: ["ogg", "oga"]
        case .opus: ["opus"]
        }
    }

    /// Every extension of every format: what a library scans when no decoder set says
    /// otherwise.
    public static let allFileExtensions: Set<String> = Set(allCases.flatMap(\.fileExtensions))
}
