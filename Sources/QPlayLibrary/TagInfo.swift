import QPlayModel
/// The tags and audio properties TagLib reads from one file.
/// Absent tags are nil; numbers that a tag cannot hold (track 0, year 0) count as absent.
public struct TagInfo: Sendable, Equatable {
    public var title: String?
    public var artist: String?
    public var album: String?
    public var albumArtist: String?
    public var genre: String?
    public var track: Int?
    public var trackTotal: Int?
    public var disc: Int?
    public var discTotal: Int?
    public var year: Int?
    /// TagLib's length, which includes the encoder delay and padding of an MP3.
    public var durationMilliseconds: Int
    public var bitrateKbps: Int
    /// The rate the file decodes to (Opus: always 48000, whatever rate went in).
    public var sampleRate: Int
    public var channels: Int
    public var format: AudioFileFormat
    /// FLAC's bit depth; nil for the lossy formats.
    public var bitsPerSample: Int?
    public var replayGain: ReplayGain
    /// The exact samples per channel the file decodes to; nil when unknown. MP3: from
    /// the LAME header, encoder delay and padding removed. FLAC: STREAMINFO's total.
    /// Vorbis and Opus: from the granule positions, as libvorbisfile and libopusfile
    /// count (Opus's pre-skip removed).
    public var exactSamples: Int?
    /// Bytes of audio the Xing/Info header promises and bytes the file holds from its
    /// first MPEG frame on; nil when unknown.
    public var promisedAudioBytes: Int?
    public var presentAudioBytes: Int?

    /// Seconds of audio: exact from the sample count when there is one, else TagLib's.
    /// A file cut short counts only the audio it still holds.
    public var duration: Double {
        var seconds = Double(durationMilliseconds) / 1000
        if let samples = exactSamples, sampleRate > 0 {
            seconds = Double(samples) / Double(sampleRate)
        }
        if let promised = promisedAudioBytes, let present = presentAudioBytes, isTruncated {
            seconds *= Double(present) / Double(promised)
        }
        return seconds
    }

    /// The file holds less audio than its Xing/Info header promises.
    public var isTruncated: Bool {
        guard let promised = promisedAudioBytes, let present = presentAudioBytes else {
            return false
        }
        return present < promised
    }

    public init(
        title: String? = nil, artist: String? = nil, album: String? = nil,
        albumArtist: String? = nil, genre: String? = nil, track: Int? = nil,
        trackTotal: Int? = nil, disc: Int? = nil, discTotal: Int? = nil, year: Int? = nil,
        durationMilliseconds: Int = 0, bitrateKbps: Int = 0, sampleRate: Int = 0,
        channels: Int = 0, format: AudioFileFormat = .mp3, bitsPerSample: Int? = nil,
        replayGain: ReplayGain = ReplayGain(), exactSamples: Int? = nil,
        promisedAudioBytes: Int? = nil, presentAudioBytes: Int? = nil
    ) {
        self.title = title
        self.artist = artist
        self.album = album
        self.albumArtist = albumArtist
        self.genre = genre
        self.track = track
        self.trackTotal = trackTotal
        self.disc = disc
        self.discTotal = discTotal
        self.year = year
        self.durationMilliseconds = durationMilliseconds
        self.bitrateKbps = bitrateKbps
        self.sampleRate = sampleRate
        self.channels = channels
        self.format = format
        self.bitsPerSample = bitsPerSample
        self.replayGain = replayGain
        self.exactSamples = exactSamples
        self.promisedAudioBytes = promisedAudioBytes
        self.presentAudioBytes = presentAudioBytes
    }
}
