import QPlayAudio
import QPlayModel
import QPlayStreams
import Synchronization

/// What a stream was recognised as (its row of the format table), the rate and
/// channels it decodes to, and the bit rate its frames state (MP3).
struct StreamDecoding: Sendable, Equatable {
    var format: AudioFileFormat
    var audio: AudioFormat
    var bitrateKbps: Int?
}

/// What a playing stream told about itself: the station (`icy-name`) and the ICY title,
/// split on " - " into artist and title as stations send it.
struct StreamNowPlaying: Sendable, Equatable {
    var station: String?
    var title: String?
    var artist: String?
    /// The decoder plays silence for want of bytes (the buffer ran dry, the stream is
    /// being connected again).
    var buffering = false
    /// What the stream was recognised as and decodes to, once its decoder opened.
    var decoding: StreamDecoding?

    /// The ICY title whole, as the station sent it (`title` and `artist` split it).
    var wholeTitle: String? {
        guard let title else { return nil }
        return artist.map { "\($0) - \(title)" } ?? title
    }

    mutating func apply(_ metadata: ICYMetadata) {
        guard let text = metadata.title?.trimmingCharacters(in: .whitespaces) else { return }
        if let dash = text.range(of: " - "), dash.lowerBound != text.startIndex {
            artist = String(text[..<dash.lowerBound])
            title = String(text[dash.upperBound...])
        } else {
            artist = nil
            title = text.isEmpty ? nil : text
        }
    }

    /// `track` as the listener sees it while the stream plays: the ICY title when
    /// there is one, else the station, else the URL.
    func shown(_ track: Track) -> Track {
        var shown = track
        if let title {
            shown.title = title
            shown.artist = artist
        } else if let station {
            shown.title = station
        }
        shown.album = station
        if let decoding {
            shown.format = decoding.format
            shown.sampleRate = decoding.audio.sampleRate
            shown.channels = decoding.audio.channels
            shown.bitrateKbps = decoding.bitrateKbps ?? 0
        }
        return shown
    }
}

/// The streams' metadata by playback request token, written by the network side and
/// read when status is built; `changed` tells the player (which then sends a `player`
/// event when the token is the one playing).
final class StreamMetadataBoard: Sendable {
    private let entries = Mutex<[UInt64: StreamNowPlaying]>([:])
    private let listener = Mutex<(@Sendable (UInt64) -> Void)?>(nil)

    func onChange(_ body: @escaping @Sendable (UInt64) -> Void) {
        listener.withLock { $0 = body }
    }

    func opened(token: UInt64, station: String?) {
        entries.withLock { $0[token] = StreamNowPlaying(station: station) }
        notify(token)
    }

    func decoding(_ decoding: StreamDecoding, token: UInt64) {
        entries.withLock { $0[token, default: StreamNowPlaying()].decoding = decoding }
        notify(token)
    }

    func received(_ metadata: ICYMetadata, token: UInt64) {
        let changed = entries.withLock { entries -> Bool in
            var now = entries[token] ?? StreamNowPlaying()
            let before = now
            now.apply(metadata)
            entries[token] = now
            return now != before
        }
        if changed { notify(token) }
    }

    /// Whether request `token`'s stream is buffering now; a change tells the player.
    func buffering(_ buffering: Bool, token: UInt64) {
        let changed = entries.withLock { entries -> Bool in
            guard entries[token] != nil, entries[token]?.buffering != buffering else { return false }
            entries[token]?.buffering = buffering
            return true
        }
        if changed { notify(token) }
    }

    /// The stream ended: its request will not be shown again.
    func closed(token: UInt64) {
        _ = entries.withLock { $0.removeValue(forKey: token) }
    }

    func nowPlaying(token: UInt64) -> StreamNowPlaying? {
        entries.withLock { $0[token] }
    }

    private func notify(_ token: UInt64) {
        listener.withLock { $0 }?(token)
    }
}
