import Foundation
import QPlayModel

/// Which ReplayGain value scales a track.
public enum ReplayGainMode: String, Sendable, CaseIterable {
    /// No ReplayGain: tracks play as they are.
    case off
    /// The track's own gain: every track at the same loudness.
    case track
    /// The album's gain: an album's tracks keep their loudness relative to each other.
    case album
    /// Album gain while the track's neighbours in the play order come from the same
    /// album (an album played through), track gain for a track among others.
    case auto
}

/// The ReplayGain configuration and the amplitude factor it gives a track.
///
/// The factor is 10^((gain + preamp) / 20), lowered to 1 / peak when that would clip
/// the loudest sample the tags know of. Fallbacks: track mode takes the album gain of a
/// file with no track gain, album mode the track gain; the peak of the gain used, else
/// the other one (either keeps this track from clipping; the album peak, never below the
/// track's, more than needed). A file with no usable gain plays as it is, without the
/// preamp: an untagged file is neither boosted nor cut (MPD's `replaygain_missing_preamp`
/// defaults to 0 dB for the same reason).
public struct ReplayGainSettings: Sendable, Hashable {
    public var mode: ReplayGainMode
    /// dB added to every gain, −15...+15.
    public var preamp: Double

    public static let preampRange: ClosedRange<Double> = -15...15
    /// Gains outside this are not what a ReplayGain scanner writes: the tag is junk, and
    /// taken as absent.
    public static let plausibleGain: ClosedRange<Double> = -51...51

    public init(mode: ReplayGainMode = .off, preamp: Double = 0) {
        self.mode = mode
        self.preamp = preamp
    }

    /// What applies to one track: which tag's gain, and the linear amplitude factor.
    public struct Choice: Sendable, Hashable {
        public enum Source: String, Sendable {
            case track, album
        }
        public var source: Source
        public var factor: Double
        public var decibels: Double { 20 * log10(factor) }
    }

    /// The linear amplitude factor for a track with `gains`; `withinAlbum` decides
    /// `auto` (see `PlayerEngine.playsWithinAlbum`). 1: the samples stay as they are.
    public func factor(for gains: ReplayGain, withinAlbum: Bool) -> Double {
        choice(for: gains, withinAlbum: withinAlbum)?.factor ?? 1
    }

    /// The gain for a track with `gains`; nil when none applies (mode off, no usable tag).
    public func choice(for gains: ReplayGain, withinAlbum: Bool) -> Choice? {
        let useAlbum: Bool
        switch mode {
        case .off: return nil
        case .track: useAlbum = false
        case .album: useAlbum = true
        case .auto: useAlbum = withinAlbum
        }
        let track = Self.usable(gain: gains.trackGain)
        let album = Self.usable(gain: gains.albumGain)
        let source: Choice.Source = useAlbum ? (album != nil ? .album : .track) : (track != nil ? .track : .album)
        guard let gain = source == .album ? album : track else { return nil }
        let trackPeak = Self.usable(peak: gains.trackPeak)
        let albumPeak = Self.usable(peak: gains.albumPeak)
        let peak = source == .album ? (albumPeak ?? trackPeak) : (trackPeak ?? albumPeak)
        var factor = Self.amplitude(decibels: gain + preamp)
        if let peak { factor = min(factor, 1 / peak) }
        return Choice(source: source, factor: factor)
    }

    /// 10^(dB / 20).
    public static func amplitude(decibels: Double) -> Double {
        pow(10, decibels / 20)
    }

    /// Whether two tracks belong to one album: the same album title (not empty) and the
    /// same album artist (the artist when there is no album artist). Compilations share
    /// the album artist; two albums called "Greatest Hits" do not.
    public static func sharesAlbum(_ a: Track, _ b: Track) -> Bool {
        guard let album = a.album, !album.isEmpty, album == b.album else { return false }
        return (a.albumArtist ?? a.artist) == (b.albumArtist ?? b.artist)
    }

    private static func usable(gain: Double?) -> Double? {
        guard let gain, gain.isFinite, plausibleGain.contains(gain) else { return nil }
        return gain
    }

    private static func usable(peak: Double?) -> Double? {
        guard let peak, peak.isFinite, peak > 0 else { return nil }
        return peak
    }
}
