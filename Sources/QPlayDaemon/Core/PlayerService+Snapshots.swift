import Logging
import QPlayAudio
import QPlayEngine
import QPlayLibrary
import QPlayModel
import SystemPackage

/// What frontends read: one `PlayerSnapshot` of engine, audio thread and storage from
/// the same moment, and the queue.
extension PlayerService {
    /// The player as every frontend shows it (JSON `status`, MPD's `status`).
    func snapshot() -> PlayerSnapshot {
        let position = self.position
        let snapshot = audio.snapshot
        let now = self.now
        let (status, token, sleep) = inPlace { engine in
            // The length the decoder measured, of the request status describes: one
            // snapshot gives track, position and duration alike.
            let measured = snapshot.token != nil && snapshot.token == engine.currentRequestToken ? snapshot.duration : nil
            engine.refreshUpcoming()
            let sleep = engine.sleepRemaining(now: now, position: position, duration: measured).map {
                (remaining: $0, endOfTrack: engine.sleepTimer == .endOfTrack)
            }
            return (engine.status(position: position, duration: measured), engine.currentRequestToken, sleep)
        }
        return PlayerSnapshot(
            status: showingStream(status, token: token),
            outputName: snapshot.outputName, outputError: snapshot.outputError, storageError: storageError,
            replayGainMode: replayGain.mode,
            replayGain: token.flatMap { replayGainChoices[$0] },
            sleep: sleep,
            level: status.state == .playing && snapshot.state == .playing ? audio.level : nil,
            buffering: streamBuffering(status, token: token),
            chapters: chapters(of: snapshot, token: token), outputs: snapshot.outputs)
    }

    /// The chapters of the request `token` when the audio snapshot is of it.
    private func chapters(of snapshot: AudioSnapshot, token: UInt64?) -> [Chapter] {
        snapshot.token != nil && snapshot.token == token ? snapshot.chapters : []
    }

    /// Seeks to a chapter of the playing track.
    func seek(to request: ChapterRequest) throws(EngineError) {
        let chapters = chapters(of: audio.snapshot, token: inPlace { $0.currentRequestToken })
        try perform { engine, now, position throws(EngineError) in
            try engine.seek(to: request, in: chapters, now: now, position: position)
        }
    }

    /// The snapshot and an answer of the engine from the same moment (MPRIS asks
    /// whether next and previous would change track).
    func snapshot<Answer: Sendable>(asking question: @Sendable (PlayerEngine) -> Answer) -> (PlayerSnapshot, Answer) {
        let snapshot = snapshot()
        return (snapshot, inPlace { question($0) })
    }

    /// The collection the user sees, with its version.
    func queueSnapshot() -> QueueSnapshot {
        engine.queue
    }

    /// `count` entries of the collection from index `start`, copied out of the engine:
    /// only the window's entries are taken.
    func queueSnapshot(from start: Int, count: Int) -> QueueSnapshot {
        engine.queue(from: start, count: count)
    }

    /// `radius` entries either side of the playing one, copied out of the engine.
    func queueSnapshot(around radius: Int) -> QueueSnapshot {
        engine.queue(around: radius)
    }
}
