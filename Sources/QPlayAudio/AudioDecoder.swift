import QPlayModel
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
    /// The file's chapters (an audiobook's), sorted by start; empty for most files.
    var chapters: [Chapter] { get }
    /// The bit rate its frames state (kb/s), where the codec says one; nil otherwise.
    var bitrateKbps: Int? { get }
    /// Fills `buffer` with whole interleaved frames of left-justified samples (see
    /// `AudioFormat`); returns the number of samples written (frames × channels), 0 at
    /// the end of the stream.
    func read(into buffer: UnsafeMutableBufferPointer<Int32>) throws(DecoderError) -> Int
    /// Moves to `frame` (clamped to the stream).
    func seek(toFrame frame: Int) throws(DecoderError)
}

/// The decoder of one row of the format table (`AudioFormatTable.swift` in QPlayModel):
/// the row says how the format's files are recognised, named and listed; this opens
/// them. Adding a format is three places: its C module (a system library target in
/// Package.swift), its decoder file (the decoder and one of these, naming its row) and
/// its table row — plus the line listing the new `FormatDecoder` in
/// `DecoderRegistry.standard`, the one list that binds decoders to rows (QPlayModel,
/// where the row lives, cannot name QPlayAudio's types).
protocol FormatDecoder: Sendable {
    /// The table row this decodes.
    var format: AudioFileFormat { get }
    /// Opens the file `reader` reads (which refuses anything but a non-empty regular
    /// file and bounds the search through junk; see there).
    func open(_ reader: BudgetedReader, path: FilePath) throws(DecoderError) -> any AudioDecoder
}

extension AudioDecoder {
    public var chapters: [Chapter] { [] }
    public var bitrateKbps: Int? { nil }
}

extension Int32 {
    /// A 16-bit sample, left-justified (the pipeline's sample; see `AudioFormat`).
    @inline(__always) init(leftJustifying sample: Int16) { self = Int32(sample) << 16 }
}
