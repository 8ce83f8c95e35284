import SystemPackage

/// A track's identity in the library index; stable across rescans while the file's
/// path stays the same.
public typealias TrackID = Int64

/// One playable file as the library index knows it.
public struct Track: Sendable, Hashable, Identifiable {
    public var id: TrackID
    /// Relative to the music directory, the exact bytes of the name on disk.
    public var path: FilePath
    /// The title tag, or the file name without its extension when there is none.
    public var title: String
    public var artist: String?
    public var album: String?
    public var albumArtist: String?
    public var genre: String?
    public var trackNumber: Int?
    public var discNumber: Int?
    public var year: Int?
    /// Seconds of audio: the exact sample count over the rate where the file tells it
    /// (MP3 with a LAME header, gapless; FLAC; Vorbis; Opus), else TagLib's length.
    public var duration: Double
    public var bitrateKbps: Int
    /// The rate the file decodes to (Opus: always 48000).
    public var sampleRate: Int
    public var channels: Int
    /// What the file's content is, whatever its name says.
    public var format: AudioFileFormat
    /// FLAC's bit depth; nil for the lossy formats.
    public var bitsPerSample: Int?
    public var replayGain: ReplayGain
    public var fileSize: Int64
    /// Nanoseconds since the epoch.
    public var modificationTime: Int64

    public init(
        id: TrackID, path: FilePath, title: String, artist: String? = nil, album: String? = nil,
        albumArtist: String? = nil, genre: String? = nil, trackNumber: Int? = nil,
        discNumber: Int? = nil, year: Int? = nil, duration: Double = 0, bitrateKbps: Int = 0,
        sampleRate: Int = 0, channels: Int = 0, format: AudioFileFormat = .mp3,
        bitsPerSample: Int? = nil, replayGain: ReplayGain = ReplayGain(),
        fileSize: Int64 = 0, modificationTime: Int64 = 0
    ) {
        self.id = id
        self.path = path
        self.title = title
        self.artist = artist
        self.album = album
        self.albumArtist = albumArtist
        self.genre = genre
        self.trackNumber = trackNumber
        self.discNumber = discNumber
        self.year = year
        self.duration = duration
        self.bitrateKbps = bitrateKbps
        self.sampleRate = sampleRate
        self.channels = channels
        self.format = format
        self.bitsPerSample = bitsPerSample
        self.replayGain = replayGain
        self.fileSize = fileSize
        self.modificationTime = modificationTime
    }
}
