import Logging
import QPlayAudio
import QPlayEngine
import QPlayLibrary
import QPlayModel
import SystemPackage

/// Carrying out the engine's audio commands: each call only queues a command for the
/// audio thread, and notes where it was told to be (`commanded`).
extension PlayerService {
    func send(_ command: AudioCommand) {
        let now = clock.now
        switch command {
        case .play(let request, let from, let paused):
            commanded = CommandedPosition(token: request.token, seeking: false, seconds: from, at: now, moving: !paused)
            audio.play(item(request), from: from, paused: paused)
        case .setNext(let request):
            // Tied to the request the engine holds for now-playing: arriving after the
            // stream moved on, it is dropped rather than attached to the wrong item.
            audio.setNext(request.map(item), after: engine.currentRequestToken)
        case .pause:
            commanded = commanded.map { $0.paused(at: now) }
            audio.pause()
        case .resume:
            commanded = commanded.map { $0.resumed(at: now) }
            audio.resume()
        case .stop:
            commanded = nil
            audio.stop()
        case .seek(let seconds):
            let moving = engine.playbackState == .playing
            commanded = CommandedPosition(
                token: engine.currentRequestToken, seeking: true, seconds: seconds, at: now, moving: moving)
            audio.seek(to: seconds, in: engine.currentRequestToken)
        case .volume(let percent): audio.setVolume(percent)
        case .scan(let rate):
            // While scanning, the snapshot is the only truth.
            commanded = nil
            audio.startScan(rate: rate)
        case .endScan: audio.endScan()
        case .fade(let factor, let seconds): audio.fade(to: factor, over: seconds)
        }
    }

    /// The request as the audio thread plays it, with its ReplayGain decided now: for
    /// `auto` from its neighbours in the play order at the moment it is handed over
    /// (played or prefetched), which holds for the rest of that play.
    private func item(_ request: PlaybackRequest) -> PlaybackItem {
        let track = request.entry.track
        let withinAlbum = replayGain.mode == .auto && engine.playsWithinAlbum(request.entry)
        let choice = replayGain.choice(for: track.replayGain, withinAlbum: withinAlbum)
        // Only the requests the audio thread can still play are kept.
        let current = engine.currentRequestToken
        replayGainChoices = replayGainChoices.filter { $0.key == current }
        replayGainChoices[request.token] = choice
        if let choice {
            log.debug("ReplayGain \(choice.source.rawValue) gain \(choice.decibels) dB for \(track.path)")
        }
        // A URL entry's path is its URL (`Track.streamURL`), not a file in the music directory.
        let path = track.isStream ? track.path : musicDirectory.pushing(track.path)
        return PlaybackItem(token: request.token, path: path, gain: choice?.factor ?? 1)
    }
}
