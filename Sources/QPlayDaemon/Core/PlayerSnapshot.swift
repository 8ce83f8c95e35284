import QPlayAudio
import QPlayEngine
import QPlayModel

/// Everything a frontend shows of the player at one moment, in the model's terms: the
/// engine's status at the audio thread's position (with the length the decoder
/// measured), the output, whether saving works, and the ReplayGain applied. Each
/// frontend translates it into its own protocol (JSON `status`, MPD's `status` and
/// `currentsong`).
struct PlayerSnapshot: Sendable, Equatable {
    var status: EngineStatus
    var outputName: String
    /// What is wrong with the output now (it is being retried), nil while it works.
    var outputError: String?
    /// Why the player state cannot be saved now, nil while saves work.
    var storageError: String?
    var replayGainMode: ReplayGainMode
    /// The gain applied to the now-playing request; nil when none applies.
    var replayGain: ReplayGainSettings.Choice?
    /// The sleep timer: seconds until it acts, and whether it waits for the track end.
    var sleep: (remaining: Double, endOfTrack: Bool)?
    /// The output's last level reading while playing (nil while metering is off).
    var level: AudioLevel? = nil
    /// Whether the playing stream is buffering; nil when the entry is no stream.
    var buffering: Bool? = nil
    /// The now-playing track's chapters, as its decoder read them (empty when none).
    var chapters: [Chapter] = []
    /// Every output, the first (`outputName`) first.
    var outputs: [OutputCondition] = []

    /// The chapter at the status's position (`ChapterNavigation.index`).
    var chapter: Int? { ChapterNavigation.index(at: status.position, in: chapters) }

    static func == (lhs: PlayerSnapshot, rhs: PlayerSnapshot) -> Bool {
        lhs.status == rhs.status && lhs.outputName == rhs.outputName && lhs.outputError == rhs.outputError
            && lhs.storageError == rhs.storageError && lhs.replayGainMode == rhs.replayGainMode
            && lhs.replayGain == rhs.replayGain && lhs.sleep?.remaining == rhs.sleep?.remaining
            && lhs.sleep?.endOfTrack == rhs.sleep?.endOfTrack && lhs.level == rhs.level
            && lhs.chapters == rhs.chapters && lhs.buffering == rhs.buffering && lhs.outputs == rhs.outputs
    }
}
