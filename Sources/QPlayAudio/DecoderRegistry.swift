import SystemPackage

/// The decoders qplay has, chosen by a file's content, not its name: a FLAC file named
/// `.mp3` plays, a text file named `.flac` is reported. A file no format recognises by
/// its first bytes goes to libmpg123, which searches for MPEG frames (an MP3 may start
/// with junk) within the reader's budget.
public struct DecoderRegistry: Sendable {
    /// How many bytes after a leading ID3v2 tag a format sees to recognise its files.
    static let headLength = 64

    let formats: [any FormatDecoder]
    /// Tried when no format recognises the file.
    let fallback: any FormatDecoder

    public static let standard = DecoderRegistry(
        formats: [
            MPG123Format(),
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

    /// Opens `path` with the decoder its content calls for; with `format`, the decoder
    /// converts to that rate and channel count.
    public func open(_ path: FilePath, converting format: AudioFormat? = nil) throws(DecoderError) -> any AudioDecoder {
        let reader = try BudgetedReader(opening: path)
        if let known = recognized(reader) {
            return try converted(try known.open(reader, path: path), path: path, to: format)
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
        guard decoder is MPG123Decoder else {
            throw DecoderError(path: path, reason: "cannot convert \(decoder.format) to \(format)")
        }
        // libmpg123 converts while decoding: the file is opened again in that mode.
        return try MPG123Decoder(path: path, converting: format)
    }
}
