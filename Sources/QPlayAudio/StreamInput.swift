import QPlayModel
import SystemPackage

/// One network stream's bytes as a decoder reads them: from a buffer that the network
/// fills on other threads. The audio thread only calls `read`, which never waits, so it
/// never touches the network.
public protocol StreamInput: AnyObject, Sendable {
    /// The server's content type (`audio/mpeg`, `application/ogg`, …), nil when none.
    var contentType: String? { get }
    /// Copies what is buffered now, up to `buffer.count` bytes; never waits.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamInputRead
    /// Waits until `count` bytes are buffered, the stream ended or `deadline` passed.
    /// Only for the opener's thread, never the audio thread.
    func waitForBytes(_ count: Int, until deadline: ContinuousClock.Instant)
    /// The stream was recognised as `format` and decodes to `audio` (before any
    /// conversion for the output) at `bitrateKbps` where its frames state one: told
    /// once, on the opener's thread.
    func decoding(_ format: AudioFileFormat, audio: AudioFormat, bitrateKbps: Int?)
    /// The decoder is done with the stream: the connection ends.
    func close()
}

public enum StreamInputRead: Equatable, Sendable {
    case bytes(Int)
    /// Nothing buffered now; more may come.
    case empty
    /// Everything was read and the stream is over: nil when the server ended it,
    /// otherwise why it broke off.
    case ended(String?)
}

/// Connects to stream URLs for the decoders (the daemon provides one; QPlayAudio reads
/// no network itself).
public protocol StreamOpening: Sendable {
    /// Opens `url` for the playback request `token`; throws the reason it cannot be
    /// played (refused, 404, not audio …). Called on the opener's thread.
    func open(url: String, token: UInt64, until deadline: ContinuousClock.Instant) throws(DecoderError) -> any StreamInput
}
