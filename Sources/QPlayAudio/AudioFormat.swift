/// The PCM format that flows from decoders to outputs: interleaved signed 32-bit
/// native-endian samples, left-justified (full scale is the whole `Int32` range,
/// whatever the source's depth), so 16- and 24-bit sources share one path and a 16-bit
/// sample survives the trip bit-exact (`s << 16`, then `>> 16`). `bits` says how many
/// of the 32 carry the source's signal: the output picks its sample encoding from it.
public struct AudioFormat: Sendable, Hashable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int
    /// Significant bits per sample: 16 for MP3, Vorbis and Opus (decoded to 16 bits), the
    /// bit depth for FLAC.
    public var bits: Int

    public init(sampleRate: Int, channels: Int, bits: Int = 16) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.bits = bits
    }

    /// What `file:` and `pipe:` outputs write unless configured otherwise (CD audio).
    public static let cd = AudioFormat(sampleRate: 44100, channels: 2)

    /// Whether audio of `other` continues a stream of this format on the same open
    /// output: same rate and channel count. The depth may differ — the output's sample
    /// encoding, chosen when it opened, takes either (narrowing with dither).
    public func joins(_ other: AudioFormat) -> Bool {
        sampleRate == other.sampleRate && channels == other.channels
    }

    /// The frame at `seconds`, for any number a caller may pass (negative, NaN, or past
    /// what an `Int` holds: a track whose indexed duration is 0 clamps nothing): 0 for
    /// those below 0 or not a number, at most a day of frames — beyond any track, and
    /// far below where the conversion would trap.
    public func frame(atSeconds seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        let frames = (seconds * Double(sampleRate)).rounded()
        return Int(min(frames, Double(sampleRate) * 86_400))
    }

    public var description: String { "\(sampleRate) Hz, \(channels) ch, \(bits) bit" }
}
