/// The PCM format that flows from decoders to outputs: always interleaved signed 16-bit
/// native-endian samples (little-endian on every platform qplay runs on); only the rate
/// and channel count vary.
public struct AudioFormat: Sendable, Hashable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int

    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// What `file:` and `pipe:` outputs write unless configured otherwise (CD audio).
    public static let cd = AudioFormat(sampleRate: 44100, channels: 2)

    public var bytesPerFrame: Int { channels * MemoryLayout<Int16>.size }

    public var description: String { "\(sampleRate) Hz, \(channels) ch, s16le" }
}
