/// The format of the HTTP stream (`http_stream`): what listeners get at `/stream`.
public enum StreamEncoding: String, Sendable, CaseIterable {
    /// MP3 at 128 kb/s, constant (LAME): what every player and browser takes.
    case mp3
    /// Ogg Opus at 96 kb/s (libopusenc): better sound for its size.
    case opus

    public var contentType: String {
        switch self {
        case .mp3: "audio/mpeg"
        case .opus: "audio/ogg"
        }
    }

    /// The bit rate it is encoded at, in kb/s.
    public var kilobitsPerSecond: Int {
        switch self {
        case .mp3: 128
        case .opus: 96
        }
    }

    func makeEncoder(rate: Int, channels: Int) throws(StreamEncoderError) -> any StreamEncoder {
        switch self {
        case .mp3: try MP3StreamEncoder(rate: rate, channels: channels, kilobitsPerSecond: kilobitsPerSecond)
        case .opus: try OpusStreamEncoder(rate: rate, channels: channels, kilobitsPerSecond: kilobitsPerSecond)
        }
    }
}

/// Turns interleaved 16-bit PCM into a stream format's bytes. Used under the
/// broadcast's lock only, one call at a time.
protocol StreamEncoder: AnyObject, Sendable {
    /// What a listener is sent before anything else (Ogg Opus's header pages; none for
    /// MP3, whose decoders find the next frame wherever they start).
    var header: [UInt8] { get }
    /// Encodes `frames` interleaved frames; answers the bytes ready now.
    func encode(_ samples: UnsafeBufferPointer<Int16>, frames: Int) -> [UInt8]
}

struct StreamEncoderError: Error, CustomStringConvertible {
    var description: String
}
