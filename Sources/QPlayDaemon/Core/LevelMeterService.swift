import NIOCore
import QPlayAudio
import Synchronization

/// Turns the audio thread's level metering on while someone listens — a connection
/// subscribed to `level`, or a `status` asked for within `askLease` — and off
/// otherwise, so a daemon no one watches does not measure; publishes each window
/// measured while playing as a `level` core event.
final class LevelMeterService: Sendable {
    /// A `status` keeps the meter on this long: a status bar polling every few seconds
    /// reads a current level each time, and one request does not leave it running.
    static let askLease = Duration.seconds(10)

    private struct State {
        var listeners = 0
        var askedUntil: ContinuousClock.Instant?
        var on = false
        var leaseEnd: Task<Void, Never>?
    }

    private let audio: AudioPlayer
    private let events: EventPublisher
    private let state = Mutex(State())

    init(audio: AudioPlayer, events: EventPublisher) {
        self.audio = audio
        self.events = events
    }

    /// Publishes the windows the audio thread measures, until it stops. On `eventLoop`,
    /// the socket server's: each window then wakes that one thread, which writes the
    /// event to its subscribers at once, rather than a pool thread that hands the write
    /// on to the loop.
    func start(on eventLoop: any EventLoop) -> Task<Void, Never> {
        let audio = self.audio
        let events = self.events
        return Task(executorPreference: EventLoopTaskExecutor(eventLoop)) {
            for await _ in audio.levels {
                guard audio.snapshot.state == .playing, let level = audio.level else { continue }
                events.publish(.level(level))
            }
        }
    }

    /// The number of connections subscribed to `level` (from the socket server).
    func listenersChanged(to count: Int) {
        state.withLock { $0.listeners = count }
        update()
    }

    /// A `status` is being answered: the meter runs for `askLease`. The answer does not
    /// wait for a first reading (a window is 100 ms): `status` stays as quick while
    /// playing as while paused, and a status bar polling it reads a level from its
    /// second poll on. A burst of requests only moves the lease's end: one timer runs at
    /// a time.
    func asked() {
        let until = ContinuousClock.now + Self.askLease
        let (wasOn, startTimer) = state.withLock { state in
            state.askedUntil = until
            defer { if state.leaseEnd == nil { state.leaseEnd = Task { [weak self] in await self?.runLease() } } }
            return (state.on, state.leaseEnd == nil)
        }
        if !wasOn || startTimer { update() }
    }

    /// Sleeps until the lease ends (moved on by later requests meanwhile), then turns
    /// the meter off unless someone subscribes.
    private func runLease() async {
        while true {
            // Checked and ended in one step, so a request moving the end meanwhile
            // either is seen here or starts a timer of its own.
            let until = state.withLock { state -> ContinuousClock.Instant? in
                if let until = state.askedUntil, ContinuousClock.now < until { return until }
                state.leaseEnd = nil
                return nil
            }
            guard let until else { break }
            do {
                try await Task.sleep(until: until)
            } catch {
                return
            }
        }
        update()
    }

    private func update() {
        let on = state.withLock { state in
            let asked = state.askedUntil.map { ContinuousClock.now < $0 } ?? false
            state.on = state.listeners > 0 || asked
            return state.on
        }
        audio.setMetering(on)
    }

    func stop() {
        state.withLock { $0.leaseEnd?.cancel() }
        audio.setMetering(false)
    }
}
