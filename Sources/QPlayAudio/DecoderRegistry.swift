import SystemPackage

/// The decoders qplay has, chosen by a file's content, not its name: a FLAC file named
/// `.mp3` plays, a text file named `.flac` is reported. A file no format recognises by
/// its first bytes goes to libmpg123, which searches for MPEG frames (an MP3 may start
/// with junk) within the reader's budget — unless its name says it is of another
/// format: libmpg123 finds false frame syncs in other data (it played an Opus file as
/// noise), so a `.flac`, `.ogg` or `.opus` file that is not one is reported instead.
public struct DecoderRegistry: Sendable {
    /// How many bytes after a leading ID3v2 tag a format sees to recognise its files.
    static let headLength = 64

    let formats: [any FormatDecoder]
    /// Tried when no format recognises the file.
    let fallback: any FormatDecoder

    public static let standard = DecoderRegistry(
        formats: [
            MPG123Format(),
            FLACFormat(),
            VorbisFormat(),
            OpusFormat(),
        ], fallback: MPG123Format())

    init(formats: [any FormatDecoder], fallback: any FormatDecoder) {
        self.formats = formats
        self.fallback = fallback
    }

    /// Lower-case file name extensions of every format (what the scanner indexes).
    public var fileExtensions: Set<String> {
        formats.reduce(into: []) { $0.formUnion($1.fileExtensions) }
    }

    /// The format `path` holds by its content (`mp3`, `flac`, …), nil when none
    /// recognises it.
    public func formatName(of path: FilePath) throws(DecoderError) -> String? {
        recognized(try BudgetedReader(opening: path))?.name
    }

    /// Opens `path` with the decoder its content calls for; with `format`, a file of
    /// another rate or channel count comes wrapped in a `ResamplingDecoder` to it.
    public func open(_ path: FilePath, converting format: AudioFormat? = nil) throws(DecoderError) -> any AudioDecoder {
        let reader = try BudgetedReader(opening: path)
        if let known = recognized(reader) {
            return try converted(try known.open(reader, path: path), path: path, to: format)
        }
        let named = path.extension?.lowercased() ?? ""
        if let claimed = formats.first(where: { $0.name != fallback.name && $0.fileExtensions.contains(named) }) {
            throw DecoderError(
                path: path,
                reason: "not a file qplay plays (MP3, FLAC, Ogg Vorbis, Opus): named .\(named), but no \(claimed.name) audio")
        }
        do {
            return try converted(try fallback.open(reader, path: path), path: path, to: format)
        } catch {
            throw DecoderError(
                path: path, reason: "not a file qplay plays (MP3, FLAC, Ogg Vorbis, Opus): \(error.reason)")
        }
    }

    private func recognized(_ reader: BudgetedReader) -> (any FormatDecoder)? {
        let head = reader.peek(Self.headLength, at: reader.leadingTagSize)
        return formats.first { $0.recognizes(head) }
    }

    private func converted(
        _ decoder: any AudioDecoder, path: FilePath, to format: AudioFormat?
    ) throws(DecoderError) -> any AudioDecoder {
        guard let format, !decoder.format.joins(format) else { return decoder }
        return try ResamplingDecoder(decoder, to: format, path: path)
    }
}
