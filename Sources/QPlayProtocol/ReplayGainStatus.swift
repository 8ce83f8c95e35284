/// ReplayGain as `status` reports it: the configured mode, and what it does to the
/// current track.
public struct ReplayGainStatus: Sendable, Hashable, Codable {
    /// `off`, `track`, `album` or `auto` (the `replaygain` config key).
    public var mode: String
    /// dB applied to the current track (gain plus preamp, lowered by the peak limit);
    /// nil when none is: mode off, no current track, or no ReplayGain tags.
    public var gain: Double?
    /// Which tag the gain came from, `track` or `album`; nil with `gain`.
    public var source: String?

    public init(mode: String, gain: Double? = nil, source: String? = nil) {
        self.mode = mode
        self.gain = gain
        self.source = source
    }

    /// Hundredths of a dB: what the tags are written with.
    var roundedGain: Double? { gain.map { ($0 * 100).rounded() / 100 } }

    enum CodingKeys: String, CodingKey { case mode, gain, source }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mode, forKey: .mode)
        try container.encode(roundedGain, forKey: .gain)
        try container.encode(source, forKey: .source)
    }
}
