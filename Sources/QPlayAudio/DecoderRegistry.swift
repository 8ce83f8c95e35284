import QPlayModel
import SystemPackage

/// The decoders qplay has, chosen by a file's content through the format table
/// (`AudioFormatTable.swift` in QPlayModel), not its name: a FLAC file named `.mp3`
/// plays, a text file named `.flac` is reported. A file no format recognises by its
/// first bytes goes to the format the table searches for (MPEG: libmpg123 searches for
/// frames — an MP3 may start with junk — within the reader's budget), unless its name
/// claims another format: libmpg123 finds false frame syncs in other data (it played an
/// Opus file as noise), so a `.flac`, `.ogg` or `.opus` file that is not one is reported
/// instead.
public struct DecoderRegistry: Sendable {
    /// Each table row's decoder, by format.
    let decoders: [AudioFileFormat: any FormatDecoder]
    /// The formats with a decoder, in the table's order.
    public let formats: [AudioFileFormat]
    /// Connects to URL entries' streams (see `DecoderRegistry+Streams`); nil: none play.
    public var streams: (any StreamOpening)?

    /// A decoder for every row of the table: the one list that binds decoders to rows.
    public static let standard = DecoderRegistry([
        MPG123Format(),
        FLACFormat(),
        VorbisFormat(),
        OpusFormat(),
        FFmpegFormat(.aac), FFmpegFormat(.alac), FFmpegFormat(.wav), FFmpegFormat(.aiff), FFmpegFormat(.wavPack),
    ])

    init(_ decoders: [any FormatDecoder]) {
        let byFormat = Dictionary(decoders.map { ($0.format, $0) }) { first, _ in first }
        self.decoders = byFormat
        self.formats = AudioFileFormat.allCases.filter { byFormat[$0] != nil }
    }

    /// Lower-case file name extensions of every format (what the scanner reads).
    public var fileExtensions: Set<String> {
        formats.reduce(into: []) { $0.formUnion($1.fileExtensions) }
    }

    /// The format `path` holds by its content (`mp3`, `flac`, …), nil when none
    /// recognises it.
    public func formatName(of path: FilePath) throws(DecoderError) -> String? {
        if case .recognised(let format) = choice(try BudgetedReader(opening: path), path: path) {
            return format.rawValue
        }
        return nil
    }

    /// Opens `path` with the decoder its content calls for; with `format`, a file of
    /// another rate or channel count comes wrapped in a `ResamplingDecoder` to it.
    public func open(_ path: FilePath, converting format: AudioFormat? = nil) throws(DecoderError) -> any AudioDecoder {
        let reader = try BudgetedReader(opening: path)
        switch choice(reader, path: path) {
        case .recognised(let known):
            return try converted(try decoders[known]!.open(reader, path: path), path: path, to: format)
        case .misnamed(let named, let claimed):
            throw DecoderError(
                path: path,
                reason: AudioFileFormat.notPlayed(
                    FormatChoice.misnamedDetail(fileExtension: named, claimed: claimed), among: formats))
        case .unrecognised:
            guard let searched = AudioFileFormat.searchedWhenUnrecognised, let fallback = decoders[searched] else {
                throw DecoderError(path: path, reason: AudioFileFormat.notPlayed(among: formats))
            }
            do {
                return try converted(try fallback.open(reader, path: path), path: path, to: format)
            } catch {
                throw DecoderError(path: path, reason: AudioFileFormat.notPlayed(error.reason, among: formats))
            }
        }
    }

    private func choice(_ reader: BudgetedReader, path: FilePath) -> FormatChoice {
        let origin = reader.leadingTagSize
        let head = reader.peek(AudioFileFormat.headLength, at: origin)
        return AudioFileFormat.choose(
            head: head, file: { reader.peek($1, at: origin + $0) }, fileExtension: path.extension, among: formats)
    }

    func converted(
        _ decoder: any AudioDecoder, path: FilePath, to format: AudioFormat?
    ) throws(DecoderError) -> any AudioDecoder {
        guard let format, !decoder.format.joins(format) else { return decoder }
        return try ResamplingDecoder(decoder, to: format, path: path)
    }
}
