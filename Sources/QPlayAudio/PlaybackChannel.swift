import Dispatch
import Synchronization

/// A command for the audio thread, in the order the caller gave them.
enum AudioPlayerCommand: Sendable, Equatable {
    case play(PlaybackItem, from: Double, paused: Bool)
    case setNext(PlaybackItem?, after: UInt64?)
    case pause, resume, stop
    case seek(Double, token: UInt64?)
    case volume(Int)
    case fade(to: Double, over: Double)
    case scan(Double)
    case endScan
}

/// What the audio thread shares with the callers: commands in (a mutex-guarded list
/// plus a semaphore to wake the thread), the snapshot out, events out.
final class PlaybackChannel: Sendable {
    private struct State: Sendable {
        var commands: [AudioPlayerCommand] = []
        var opened: [OpenedDecoder] = []
        var snapshot = AudioSnapshot()
        var running: RunningPosition?
        var shutDown = false
        /// The last level window: the first `levelChannels` values of each list are
        /// set, overwritten in place by the audio thread (no allocation there).
        var levelRMS = [Double](repeating: LevelMeter.floor, count: LevelMeter.maxChannels)
        var levelPeak = [Double](repeating: LevelMeter.floor, count: LevelMeter.maxChannels)
        var levelChannels = 0
        var levelWindows = 0
    }

    /// The snapshot's position advances with the clock from `since`, up to `limit`.
    struct RunningPosition: Sendable {
        var since: ContinuousClock.Instant
        var limit: Double
    }

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    let events: AsyncStream<AudioEvent>.Continuation
    /// Whether the audio thread measures the level: read once per write there, so a
    /// player no one listens to pays one relaxed load for it.
    let metering = Atomic<Bool>(false)
    /// Tells that a level window was measured (the newest only is kept).
    let levels: AsyncStream<Void>.Continuation

    init(events: AsyncStream<AudioEvent>.Continuation, levels: AsyncStream<Void>.Continuation) {
        self.events = events
        self.levels = levels
    }

    /// The last level measured; nil when none was since metering was turned on.
    var level: AudioLevel? {
        state.withLock { state in
            guard state.levelChannels > 0 else { return nil }
            return AudioLevel(
                rms: Array(state.levelRMS[..<state.levelChannels]),
                peak: Array(state.levelPeak[..<state.levelChannels]), window: state.levelWindows)
        }
    }

    func setMetering(_ on: Bool) {
        metering.store(on, ordering: .relaxed)
        if !on {
            state.withLock {
                $0.levelChannels = 0
                $0.levelWindows = 0
            }
        }
    }

    func send(_ command: AudioPlayerCommand) {
        let accepted = state.withLock { state in
            guard !state.shutDown else { return false }
            state.commands.append(command)
            return true
        }
        if accepted { wake.signal() }
    }

    /// True for the first caller only.
    func requestShutdown() -> Bool {
        let first = state.withLock { state in
            defer { state.shutDown = true }
            return !state.shutDown
        }
        if first { wake.signal() }
        return first
    }

    var snapshot: AudioSnapshot {
        state.withLock { state in
            var snapshot = state.snapshot
            if let running = state.running {
                let elapsed = ContinuousClock.now - running.since
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                snapshot.position = max(snapshot.position, min(running.limit, snapshot.position + seconds))
            }
            return snapshot
        }
    }

    // MARK: audio thread side

    /// The commands sent and the decoders opened since the last call, and whether
    /// shutdown was asked for.
    func takeCommands() -> (commands: [AudioPlayerCommand], opened: [OpenedDecoder], shutDown: Bool) {
        state.withLock { state in
            defer {
                state.commands.removeAll(keepingCapacity: true)
                state.opened.removeAll(keepingCapacity: true)
            }
            return (state.commands, state.opened, state.shutDown)
        }
    }

    /// From an opener thread: a decoder for the audio thread (dropped after shutdown).
    func deliver(_ opened: OpenedDecoder) {
        let accepted = state.withLock { state in
            guard !state.shutDown else { return false }
            state.opened.append(opened)
            return true
        }
        if accepted { wake.signal() }
    }

    func publish(_ snapshot: AudioSnapshot, running: RunningPosition?) {
        state.withLock {
            $0.snapshot = snapshot
            $0.running = running
        }
    }

    /// Sleeps until a command arrives or `timeout` passes (nil: no limit).
    func waitForCommand(timeout: Duration?) {
        guard let timeout else {
            wake.wait()
            return
        }
        _ = wake.wait(timeout: timeout.fromNow)
    }

    /// From the audio thread: a completed window, written into the shared lists in place.
    func publishLevel(_ meter: inout LevelMeter) {
        state.withLock { state in
            state.levelChannels = meter.finish(rms: &state.levelRMS, peak: &state.levelPeak)
            state.levelWindows += 1
        }
        levels.yield()
    }

    func emit(_ event: AudioEvent) {
        events.yield(event)
    }
}
