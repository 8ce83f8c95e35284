import SystemPackage

/// A failed decode: the file is named and the reason is for people.
public struct DecoderError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: FilePath, reason: String) {
        self.path = path.string
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}

/// Turns one file into PCM. A decoder belongs to the thread that reads it.
public protocol AudioDecoder: AnyObject {
    /// The format `read` produces; fixed for the life of the decoder.
    var format: AudioFormat { get }
    /// Length in frames, when the file says (exact for FLAC, Vorbis, Opus and gapless
    /// LAME files).
    var frameCount: Int? { get }
    /// The frame the next `read` starts at.
    var framePosition: Int { get }
    /// Fills `buffer` with whole interleaved frames of left-justified samples (see
    /// `AudioFormat`); returns the number of samples written (frames × channels), 0 at
    /// the end of the stream.
    func read(into buffer: UnsafeMutableBufferPointer<Int32>) throws(DecoderError) -> Int
    /// Moves to `frame` (clamped to the stream).
    func seek(toFrame frame: Int) throws(DecoderError)
}

/// One file format qplay decodes: it recognises its files by their first bytes and
/// opens them. Adding a format is one file with a decoder and one of these, listed in
/// `DecoderRegistry.standard`.
protocol FormatDecoder: Sendable {
    /// The wire track's `format`: `mp3`, `flac`, `vorbis`, `opus`.
    var name: String { get }
    /// Lower-case file name extensions the scanner indexes for this format.
    var fileExtensions: Set<String> { get }
    /// Whether `head` — the file's first bytes after a leading ID3v2 tag, up to
    /// `DecoderRegistry.headLength` of them — starts a file of this format.
    func recognizes(_ head: [UInt8]) -> Bool
    /// Opens the file `reader` reads (which refuses anything but a non-empty regular
    /// file and bounds the search through junk; see there).
    func open(_ reader: BudgetedReader, path: FilePath) throws(DecoderError) -> any AudioDecoder
}

extension Int32 {
    /// A 16-bit sample, left-justified (the pipeline's sample; see `AudioFormat`).
    @inline(__always) init(leftJustifying sample: Int16) { self = Int32(sample) << 16 }
}
