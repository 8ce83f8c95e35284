import Dispatch
import Foundation
import QPlayModel
import Synchronization
import SystemPackage

/// One thing to play: `token` names this request in events (unique per request, so the
/// same file queued twice is told apart); `path` is absolute; `gain` is the item's own
/// linear amplitude factor (its ReplayGain), applied together with the volume: 1 leaves
/// the samples as they are.
public struct PlaybackItem: Sendable, Hashable {
    public var token: UInt64
    public var path: FilePath
    public var gain: Double

    public init(token: UInt64, path: FilePath, gain: Double = 1) {
        self.token = token
        self.path = path
        self.gain = gain
    }
}

/// What the audio thread reports, in the order it happened.
public enum AudioEvent: Sendable, Equatable {
    /// The first sample of the item was handed to the output.
    case started(token: UInt64)
    /// The item ended and no successor was set (a successor that joins sends `started`
    /// instead).
    case finished(token: UInt64)
    /// The item could not be opened or decoded; nothing more of it plays. A successor,
    /// when set, plays on.
    case failed(token: UInt64, reason: String)
    /// The output named `output` failed (retried with backoff) or stalled; `message`
    /// begins with its name. nil: it works again.
    case outputError(output: String, message: String?)
    /// A fade given a duration (`fade(to:over:)`) reached its target in the samples
    /// handed to the output.
    case fadeEnded
}

public enum AudioPlayerState: String, Sendable {
    case idle, playing, paused
}

/// The audio side as seen from any thread, refreshed by the audio thread after every
/// chunk it writes (about 50 times a second) and every command.
public struct AudioSnapshot: Sendable, Equatable {
    /// The item whose samples are being handed to the output (after `started`).
    public var token: UInt64?
    /// Seconds into that item, from the samples handed out minus the output's delay.
    public var position: Double
    public var duration: Double?
    /// That item's chapters (its decoder's).
    public var chapters: [Chapter] = []
    public var state: AudioPlayerState
    public var scanning: Bool
    /// The first output (the clock), and its failure or stall.
    public var outputName: String
    public var outputError: String?
    /// Every output, the first first.
    public var outputs: [OutputCondition] = []
    public var underruns: Int

    public init(
        token: UInt64? = nil, position: Double = 0, duration: Double? = nil, state: AudioPlayerState = .idle,
        scanning: Bool = false, outputName: String = "", outputError: String? = nil, underruns: Int = 0
    ) {
        self.token = token
        self.position = position
        self.duration = duration
        self.state = state
        self.scanning = scanning
        self.outputName = outputName
        self.outputError = outputError
        self.underruns = underruns
    }
}

/// Plays items on one dedicated audio thread, which owns every decoder and the output
/// (C handles never cross threads). Commands go in through a mutex-guarded list and a
/// semaphore that wakes the thread; events come out through `events`. All methods
/// return at once and may be called from any thread.
public final class AudioPlayer: Sendable {
    public let events: AsyncStream<AudioEvent>
    /// Yields each time a level window was measured while metering is on (see
    /// `setMetering`); read the value with `level`.
    public let levels: AsyncStream<Void>
    private let channel: PlaybackChannel
    private let stopped = DispatchSemaphore(value: 0)

    /// `makeOutput` is called once, on the audio thread, so the output is created where
    /// it lives; so is `makeFollowers`, the outputs after the first: each is handed a copy
    /// of what the first takes and plays it on a thread of its own, never holding the
    /// first back (`FollowingOutput`).
    public init(
        makeOutput: @escaping @Sendable () -> any AudioOutput,
        makeFollowers: @escaping @Sendable () -> [any AudioOutput] = { [] }, decoders: DecoderRegistry = .standard,
        tuning: PlaybackTuning = .init()
    ) {
        let (stream, continuation) = AsyncStream.makeStream(of: AudioEvent.self, bufferingPolicy: .unbounded)
        events = stream
        let (levelStream, levelContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        levels = levelStream
        let channel = PlaybackChannel(events: continuation, levels: levelContinuation)
        self.channel = channel
        let stopped = self.stopped
        let thread = Thread {
            // Set from inside, the name reaches the kernel too (`thread.name` below, set
            // before `start`, stays Foundation's own): top -H, /proc and the engine
            // bench's per-thread figures tell the audio thread apart.
            Thread.current.name = "qplay-audio"
            PlaybackLoop(
                channel: channel, makeOutput: makeOutput, makeFollowers: makeFollowers, decoders: decoders,
                tuning: tuning
            ).run()
            continuation.finish()
            levelContinuation.finish()
            stopped.signal()
        }
        thread.name = "qplay-audio"
        thread.start()
    }

    deinit {
        shutdown()
    }

    /// Replaces what plays now (and forgets the successor).
    public func play(_ item: PlaybackItem, from seconds: Double = 0, paused: Bool = false) {
        channel.send(.play(item, from: seconds, paused: paused))
    }

    /// The item to join when the item `after` ends: prefetched, and joined sample-exact
    /// when its format matches. nil, or another item, drops a successor not yet started.
    /// Stale when the item playing now is not `after` (the stream already moved on, or
    /// the caller has not seen it move yet): ignored, so a late successor cannot attach
    /// itself to the wrong item. nil: whatever plays now.
    public func setNext(_ item: PlaybackItem?, after token: UInt64? = nil) {
        channel.send(.setNext(item, after: token))
    }
    public func pause() { channel.send(.pause) }
    public func resume() { channel.send(.resume) }
    public func stop() { channel.send(.stop) }
    /// Seconds within the item `token`, clamped to it; at or past its end, it ends.
    /// Ignored when another item plays now: the seek was meant for one that has ended.
    /// nil: whatever plays now.
    public func seek(to seconds: Double, in token: UInt64? = nil) { channel.send(.seek(seconds, token: token)) }
    /// 0...100 on a cubic curve (see `SoftwareVolume`).
    public func setVolume(_ percent: Int) { channel.send(.volume(percent)) }
    /// A gain on top of the volume, moved steadily to `factor` (0 silence … 1 none) over
    /// `seconds` of audio written (0: at once), on the volume's curve; it holds across
    /// items until changed (see `SoftwareVolume`).
    public func fade(to factor: Double, over seconds: Double) { channel.send(.fade(to: factor, over: seconds)) }
    /// Audible scrubbing: the position moves at `rate` × real time (negative: backward).
    public func startScan(rate: Double) { channel.send(.scan(rate)) }
    public func endScan() { channel.send(.endScan) }

    public var snapshot: AudioSnapshot { channel.snapshot }

    /// Level metering on the audio thread (RMS and peak per channel over
    /// `PlaybackTuning.levelWindow` of the samples handed to the output, after volume).
    /// Off, it costs nothing; turning it off forgets the last level.
    public func setMetering(_ on: Bool) { channel.setMetering(on) }

    /// The last level window measured since metering was turned on.
    public var level: AudioLevel? { channel.level }

    /// Stops the thread: what is playing is played out to the device (at most its
    /// buffer), the output is closed, `events` finishes. Returns when the thread ended,
    /// or after `limit` if it is stuck (a read of a file that does not answer): the
    /// caller's own shutdown must not wait on a decoder.
    @discardableResult
    public func shutdown(limit: Duration = .seconds(2)) -> Bool {
        guard channel.requestShutdown() else { return true }
        return stopped.wait(timeout: limit.fromNow) == .success
    }
}
