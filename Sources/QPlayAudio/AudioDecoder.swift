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
    /// Length in frames, when the file says (exact for gapless LAME files).
    var frameCount: Int? { get }
    /// The frame the next `read` starts at.
    var framePosition: Int { get }
    /// Fills `buffer` with whole interleaved frames; returns the number of samples
    /// written (frames × channels), 0 at the end of the stream.
    func read(into buffer: UnsafeMutableBufferPointer<Int16>) throws(DecoderError) -> Int
    /// Moves to `frame` (clamped to the stream).
    func seek(toFrame frame: Int) throws(DecoderError)
}

/// Creates decoders for the file types it knows.
public protocol AudioDecoderFactory: Sendable {
    /// Lower-case file name extensions this decoder plays.
    var fileExtensions: Set<String> { get }
    /// Opens `path`; with `format`, the decoder converts to that rate and channel count.
    func open(_ path: FilePath, converting format: AudioFormat?) throws(DecoderError) -> any AudioDecoder
}
