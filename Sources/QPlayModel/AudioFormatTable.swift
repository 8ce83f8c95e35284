/// The audio formats qplay plays, one row each: the only list of them in the code.
/// The decoder registry (which decoder plays a file, the wording of its refusals), the
/// scanner (which files it reads and as what), the TagLib shim's parser, the MPD
/// frontend's `decoders` and song fields, MPRIS's `SupportedMimeTypes` and the wire's
/// `format` all read this table.
/// A new format is its C module, its decoder file (whose `FormatDecoder` names the row),
/// a row here, and that `FormatDecoder`'s line in `DecoderRegistry.standard`; a TagLib
/// type the shim has no kind of its own for is `.detectedByTagLib`. The rows' order is
/// the order MPD's `decoders` lists them in (rows of one MPD decoder under it once), and
/// the first row whose signature matches a file takes it.
extension AudioFileFormat {
    static let table: [AudioFormatRow] = [
        AudioFormatRow(
            // An MPEG frame's 11-bit sync and a layer (I, II or III; never 00, which is
            // ADTS AAC's: the AAC row below would otherwise lose its files to this one).
            wireName: "mp3", displayName: "MP3",
            signature: .anyOf([.bits([0xFF, 0xE2], mask: [0xFF, 0xE2]), .bits([0xFF, 0xE4], mask: [0xFF, 0xE4])]),
            fileExtensions: ["mp3", "mp2", "mp1"], tagLibKind: .mpeg, mpdDecoder: "mp3", mpdSampleFormat: "24",
            mimeTypes: ["audio/mpeg", "audio/mp3", "audio/x-mp3"], searchedWhenUnrecognised: true),
        AudioFormatRow(
            wireName: "flac", displayName: "FLAC", signature: .prefix(Array("fLaC".utf8)),
            fileExtensions: ["flac"], tagLibKind: .flac, mpdDecoder: "flac", mpdSampleFormat: nil,
            mimeTypes: ["audio/flac", "audio/x-flac"]),
        AudioFormatRow(
            wireName: "vorbis", displayName: "Ogg Vorbis", signature: .oggFirstPacket([0x01] + Array("vorbis".utf8)),
            fileExtensions: ["ogg", "oga"], tagLibKind: .oggVorbis, mpdDecoder: "vorbis", mpdSampleFormat: "f",
            mimeTypes: ["audio/ogg", "audio/vorbis", "audio/x-vorbis+ogg"]),
        AudioFormatRow(
            wireName: "opus", displayName: "Opus", signature: .oggFirstPacket(Array("OpusHead".utf8)),
            fileExtensions: ["opus"], tagLibKind: .oggOpus, mpdDecoder: "opus", mpdSampleFormat: "16",
            mimeTypes: ["audio/opus", "audio/x-opus+ogg"]),
        // FFmpeg's formats, as MPD plays them (its `ffmpeg` decoder). MP4 holds AAC or
        // ALAC: the first sound track's sample entry tells which. ADTS is AAC's frames
        // without a container: a 12-bit sync and layer 00.
        AudioFormatRow(
            wireName: "aac", displayName: "AAC",
            signature: .anyOf([.mp4(sampleEntry: Array("mp4a".utf8)), .bits([0xFF, 0xF0], mask: [0xFF, 0xF6])]),
            fileExtensions: ["m4a", "m4b", "mp4", "aac"], tagLibKind: .mp4, mpdDecoder: "ffmpeg", mpdSampleFormat: "f",
            mimeTypes: ["audio/mp4", "audio/aac", "audio/aacp", "audio/x-m4a", "audio/x-m4b"]),
        AudioFormatRow(
            // Its files are named as AAC's are (.m4a): the AAC row's names bring them in.
            wireName: "alac", displayName: "ALAC", signature: .mp4(sampleEntry: Array("alac".utf8)),
            fileExtensions: [], tagLibKind: .mp4, mpdDecoder: "ffmpeg", mpdSampleFormat: nil,
            mimeTypes: ["audio/x-alac"]),
        AudioFormatRow(
            wireName: "wav", displayName: "WAV", signature: .riff(Array("RIFF".utf8), form: Array("WAVE".utf8)),
            fileExtensions: ["wav"], tagLibKind: .wav, mpdDecoder: "ffmpeg", mpdSampleFormat: nil,
            mimeTypes: ["audio/wav", "audio/x-wav", "audio/vnd.wave"]),
        AudioFormatRow(
            wireName: "aiff", displayName: "AIFF",
            signature: .anyOf([
                .riff(Array("FORM".utf8), form: Array("AIFF".utf8)), .riff(Array("FORM".utf8), form: Array("AIFC".utf8)),
            ]),
            fileExtensions: ["aiff", "aif", "aifc"], tagLibKind: .aiff, mpdDecoder: "ffmpeg", mpdSampleFormat: nil,
            mimeTypes: ["audio/aiff", "audio/x-aiff"]),
        AudioFormatRow(
            wireName: "wavpack", displayName: "WavPack", signature: .prefix(Array("wvpk".utf8)),
            fileExtensions: ["wv"], tagLibKind: .wavPack, mpdDecoder: "ffmpeg", mpdSampleFormat: nil,
            mimeTypes: ["audio/x-wavpack", "audio/wavpack"]),
    ]
}

/// One row of the format table.
public struct AudioFormatRow: Sendable {
    /// A track's `format` on the JSON protocol and in the index: `mp3`, `flac`, ….
    public let wireName: String
    /// The format for people, in refusals: "MP3", "Ogg Vorbis".
    public let displayName: String
    /// How the format's files begin, after any leading ID3v2 tag: what a file is
    /// recognised by, whatever its name.
    public let signature: ContentSignature
    /// Lower-case file name extensions: the files a scan reads (and then recognises by
    /// content), and the names that claim this format.
    public let fileExtensions: [String]
    /// The TagLib parser the scanner reads the format's tags and properties with.
    public let tagLibKind: TagLibKind
    /// The decoder plugin the MPD frontend's `decoders` lists the format under.
    public let mpdDecoder: String
    /// The sample format MPD's decoder gives (MPD's `audio` and a song's `Format`), so
    /// clients show what they would with MPD; nil: the file's own bit depth.
    public let mpdSampleFormat: String?
    /// The MIME types of the format's files, as file managers and desktops name them:
    /// MPRIS's `SupportedMimeTypes` lists every row's.
    public let mimeTypes: [String]
    /// Whether a file no signature recognises is searched for this format's audio. MPEG
    /// only: an MP3 may start with junk, and its decoder searches for frames within a
    /// budget. One row at most.
    public let searchedWhenUnrecognised: Bool

    public init(
        wireName: String, displayName: String, signature: ContentSignature, fileExtensions: [String],
        tagLibKind: TagLibKind, mpdDecoder: String, mpdSampleFormat: String?, mimeTypes: [String],
        searchedWhenUnrecognised: Bool = false
    ) {
        self.wireName = wireName
        self.displayName = displayName
        self.signature = signature
        self.fileExtensions = fileExtensions
        self.tagLibKind = tagLibKind
        self.mpdDecoder = mpdDecoder
        self.mpdSampleFormat = mpdSampleFormat
        self.mimeTypes = mimeTypes
        self.searchedWhenUnrecognised = searchedWhenUnrecognised
    }
}

/// The file types of TagLib the shim (CTagLib) reads a file as; the raw values are the
/// shim's `qp_tag_kind`. The shim builds the parser of the kind the table names, never
/// TagLib's guess from the file name.
public enum TagLibKind: UInt32, Sendable, CaseIterable {
    case mpeg = 1
    case flac = 2
    case oggVorbis = 3
    case oggOpus = 4
    /// Any other type TagLib knows, as TagLib detects it from the content alone: a new
    /// format's row names this and the shim needs no change (the kinds of their own get
    /// the shim's extras: exact lengths, the LAME header, Opus's R128, bit depths).
    case detectedByTagLib = 5
    /// MP4 (AAC, ALAC): iTunes atoms and freeform ReplayGain atoms; also ADTS AAC, which
    /// TagLib does not read: its length from the frame headers, tags from an ID3v2 tag.
    case mp4 = 6
    /// RIFF WAVE: INFO and ID3 chunks.
    case wav = 7
    /// AIFF and AIFF-C: ID3 chunk.
    case aiff = 8
    /// WavPack: APEv2.
    case wavPack = 9
}
