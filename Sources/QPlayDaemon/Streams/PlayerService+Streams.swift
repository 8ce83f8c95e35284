import QPlayEngine
import QPlayModel
import QPlayProtocol

/// URL entries as the player shows and treats them: the stream's own title and station
/// over the URL, a `player` event when they change, no seeking.
extension PlayerService {
    /// `status` with the playing stream's title, artist and station (request `token`).
    func showingStream(_ status: EngineStatus, token: UInt64?) -> EngineStatus {
        guard let entry = status.entry, entry.track.isStream, let token,
            let heard = streams.nowPlaying(token: token)
        else { return status }
        var shown = status
        shown.entry = QueueEntry(id: entry.id, track: heard.shown(entry.track))
        return shown
    }

    /// What the playing stream told about itself; nil when no stream plays.
    func playingStream() -> StreamNowPlaying? {
        guard engine.status(position: 0, duration: nil).entry?.track.isStream == true,
            let token = engine.currentRequestToken
        else { return nil }
        return streams.nowPlaying(token: token)
    }

    /// Whether the playing stream is buffering (the decoder plays silence for want of
    /// bytes, or the stream is being connected); nil when the entry is no stream.
    func streamBuffering(_ status: EngineStatus, token: UInt64?) -> Bool? {
        guard let entry = status.entry, entry.track.isStream else { return nil }
        guard status.state == .playing else { return false }
        // Playing but not connected yet: the opener is at work.
        return token.flatMap { streams.nowPlaying(token: $0)?.buffering } ?? true
    }

    /// The board heard something new of request `token`'s stream.
    func streamChanged(token: UInt64) {
        guard engine.currentRequestToken == token else { return }
        events.publish(.player(snapshot()))
    }

    /// Throws `not_seekable` when the playing entry is a stream.
    func refuseSeekOnStream() throws(ProtocolError) {
        if engine.status(position: 0, duration: nil).entry?.track.isStream == true {
            throw ProtocolError(.notSeekable, "the playing entry is a live stream: it cannot seek")
        }
    }
}

extension ErrorCode {
    /// A `seek` on a live stream (a URL entry).
    static let notSeekable = ErrorCode("not_seekable")
}
