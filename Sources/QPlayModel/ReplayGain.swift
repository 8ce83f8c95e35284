/// ReplayGain values in dB (gains) and linear amplitude (peaks), when the file has them.
/// Gains are relative to ReplayGain's reference (-18 LUFS); an Opus file's R128 gains
/// (relative to -23 LUFS) are converted to it.
public struct ReplayGain: Sendable, Hashable {
    public var trackGain: Double?
    public var trackPeak: Double?
    public var albumGain: Double?
    public var albumPeak: Double?

    public init(
        trackGain: Double? = nil, trackPeak: Double? = nil,
        albumGain: Double? = nil, albumPeak: Double? = nil
    ) {
        self.trackGain = trackGain
        self.trackPeak = trackPeak
        self.albumGain = albumGain
        self.albumPeak = albumPeak
    }
}
