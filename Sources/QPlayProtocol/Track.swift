/// A track as the protocol shows it (docs/PROTOCOL.md, Types). Absent tags are `null` on the wire.
public struct Track: Sendable, Hashable, Codable {
    public var id: Int64
    /// Relative to the music directory. Bytes that are not UTF-8 appear as U+FFFD.
    public var path: String
    public var title: String
    public var artist: String?
    public var album: String?
    public var albumArtist: String?
    public var track: Int?
    public var disc: Int?
    public var year: Int?
    public var genre: String?
    /// Seconds.
    public var duration: Double?
    /// `mp3`, `flac`, `vorbis` or `opus`: what the file's content is (docs/BEHAVIOUR.md, Audio).
    public var format: String?
    /// The rate the track decodes to (Opus: 48000).
    public var sampleRate: Int?
    public var channels: Int?
    /// FLAC's bit depth; null for the lossy formats.
    public var bits: Int?
    /// Whether the track has a picture (`art`), once the daemon looked; null before.
    public var art: Bool?
    /// Times heard to the play rule, and skipped (docs/BEHAVIOUR.md, Play counts and ratings).
    public var plays: Int?
    public var skips: Int?
    /// When it last counted as a play: ISO 8601 local time with offset; null never.
    public var lastPlayed: String?
    /// 0–5 stars, 0 unrated.
    public var rating: Int?
    /// When the library first saw the file: ISO 8601 local time with offset.
    public var added: String?

    public init(
        id: Int64, path: String, title: String, artist: String? = nil, album: String? = nil,
        albumArtist: String? = nil, track: Int? = nil, disc: Int? = nil, year: Int? = nil,
        genre: String? = nil, duration: Double? = nil, format: String? = nil, sampleRate: Int? = nil,
        channels: Int? = nil, bits: Int? = nil, art: Bool? = nil, plays: Int? = nil, skips: Int? = nil,
        lastPlayed: String? = nil, rating: Int? = nil, added: String? = nil
    ) {
        self.id = id
        self.path = path
        self.title = title
        self.artist = artist
        self.album = album
        self.albumArtist = albumArtist
        self.track = track
        self.disc = disc
        self.year = year
        self.genre = genre
        self.duration = duration
        self.format = format
        self.sampleRate = sampleRate
        self.channels = channels
        self.bits = bits
        self.art = art
        self.plays = plays
        self.skips = skips
        self.lastPlayed = lastPlayed
        self.rating = rating
        self.added = added
    }

    enum CodingKeys: String, CodingKey {
        case id, path, title, artist, album, albumArtist = "album_artist", track, disc, year, genre
        case duration, format, sampleRate = "sample_rate", channels, bits, art
        case plays, skips, lastPlayed = "last_played", rating, added
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(path, forKey: .path)
        try container.encode(title, forKey: .title)
        try container.encode(artist, forKey: .artist)
        try container.encode(album, forKey: .album)
        try container.encode(albumArtist, forKey: .albumArtist)
        try container.encode(track, forKey: .track)
        try container.encode(disc, forKey: .disc)
        try container.encode(year, forKey: .year)
        try container.encode(genre, forKey: .genre)
        try container.encode(duration.map(Seconds.rounded), forKey: .duration)
        try container.encode(format, forKey: .format)
        try container.encode(sampleRate, forKey: .sampleRate)
        try container.encode(channels, forKey: .channels)
        try container.encode(bits, forKey: .bits)
        try container.encode(art, forKey: .art)
        try container.encode(plays, forKey: .plays)
        try container.encode(skips, forKey: .skips)
        try container.encode(lastPlayed, forKey: .lastPlayed)
        try container.encode(rating, forKey: .rating)
        try container.encode(added, forKey: .added)
    }
}

/// Times on the wire are seconds rounded to milliseconds, so lines stay short and
/// readable (`12.345`, not `12.345678912`).
enum Seconds {
    static func rounded(_ value: Double) -> Double {
        value.isFinite ? (value * 1000).rounded() / 1000 : 0
    }
}
