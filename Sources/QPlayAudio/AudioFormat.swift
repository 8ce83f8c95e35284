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

    /// The frame at `seconds`, for any number a caller may pass (negative, NaN, or past
    /// what an `Int` holds: a track whose indexed duration is 0 clamps nothing): 0 for
    /// those below 0 or not a number, at most a day of frames — beyond any track, and
    /// far below where the conversion would trap.
    public func frame(atSeconds seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        let frames = (seconds * Double(sampleRate)).rounded()
        return Int(min(frames, Double(sampleRate) * 86_400))
    }

    public var description: String { "\(sampleRate) Hz, \(channels) ch, s16le" }
}
