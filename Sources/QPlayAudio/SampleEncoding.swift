/// How an open output takes its samples, little-endian, interleaved.
public enum SampleEncoding: Sendable, Equatable, CustomStringConvertible {
    /// Signed 16-bit: the only encoding of `file:`/`pipe:` (raw CD-style PCM).
    case s16
    /// Signed 24-bit in the low three bytes of a 32-bit word (ALSA's S24_LE).
    case s24in32
    /// Signed 32-bit.
    case s32

    public var bytesPerSample: Int {
        switch self {
        case .s16: 2
        case .s24in32, .s32: 4
        }
    }

    /// Significant bits a sample of this encoding holds.
    public var bits: Int {
        switch self {
        case .s16: 16
        case .s24in32: 24
        case .s32: 32
        }
    }

    public var description: String {
        switch self {
        case .s16: "s16le"
        case .s24in32: "s24le"
        case .s32: "s32le"
        }
    }
}
