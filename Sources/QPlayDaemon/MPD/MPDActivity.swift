import QPlayEngine
import Synchronization

/// What the MPD frontend learns from the core's events beyond the idle subsystems: the
/// `update` job numbers (`updating_db`) and the time spent playing (`stats` playtime).
/// Shared by the server (which feeds it every event) and the commands.
final class MPDActivity: Sendable {
    private struct State {
        var translator = MPDEventTranslator()
        /// The job number of the scan running now.
        var runningJob: Int?
        /// Jobs `update` queued behind the running scan, in order.
        var queuedJobs: [Int] = []
        var lastJob = 0
        var playedBefore: Duration = .zero
        var playingSince: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    /// Hands changes no core event tells of to every connection (set by the server).
    private let localChanges = Mutex<(@Sendable (MPDSubsystems) -> Void)?>(nil)

    /// The player and queue as the frontend starts: what the first events are compared with.
    func start(with status: EngineStatus) {
        state.withLock { state in
            state.translator = MPDEventTranslator(initial: status)
            if status.state == .playing { state.playingSince = .now }
        }
    }

    /// The subsystems `event` changes; notes scans and playing time on the way.
    func receive(_ event: CoreEvent) -> MPDSubsystems {
        state.withLock { state in
            switch event {
            case .player(let snapshot):
                let playing = snapshot.status.state == .playing
                if playing, state.playingSince == nil {
                    state.playingSince = .now
                } else if !playing, let since = state.playingSince {
                    state.playedBefore += .now - since
                    state.playingSince = nil
                }
            case .scan(let progress):
                if progress.done {
                    state.runningJob = state.queuedJobs.isEmpty ? nil : state.queuedJobs.removeFirst()
                } else if state.runningJob == nil {
                    // A scan qplay started itself (at start-up, or from its own protocol).
                    state.lastJob += 1
                    state.runningJob = state.lastJob
                }
            default:
                break
            }
            return state.translator.subsystems(for: event)
        }
    }

    /// Where `changed` sends its subsystems: the server's connections.
    func onLocalChange(_ body: @escaping @Sendable (MPDSubsystems) -> Void) {
        localChanges.withLock { $0 = body }
    }

    /// A change an MPD command made that no core event tells of (a sticker): every
    /// connection hears it, the one that made it too, as from MPD.
    func changed(_ subsystems: MPDSubsystems) {
        localChanges.withLock { $0 }?(subsystems)
    }

    /// A job number for an `update` that was just queued with the library service.
    func updateQueued() -> Int {
        state.withLock { state in
            state.lastJob += 1
            if state.runningJob == nil {
                state.runningJob = state.lastJob
            } else {
                state.queuedJobs.append(state.lastJob)
            }
            return state.lastJob
        }
    }

    /// `updating_db`: the running scan's job.
    var runningJob: Int? { state.withLock { $0.runningJob } }

    /// Whole seconds played since qplayd started.
    var playedSeconds: Int {
        state.withLock { state in
            var played = state.playedBefore
            if let since = state.playingSince { played += .now - since }
            return Int(played.components.seconds)
        }
    }
}
