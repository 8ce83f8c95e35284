import Foundation
import QPlayAudio
import QPlayTestSupport
import Synchronization
import SystemPackage
import Testing

/// Records an AudioPlayer's events; optionally drives a queue the way the engine does
/// (successor on `started`, the next item on `finished`/`failed` of a prefetched one).
final class PlayerHarness: Sendable {
    let player: AudioPlayer
    private let state = HarnessState()
    private let consumer = Mutex<Task<Void, Never>?>(nil)

    private final class HarnessState: Sendable {
        let log = Mutex<[AudioEvent]>([])
        let queue = Mutex<QueueState>(QueueState())
    }

    private struct QueueState {
        var items: [PlaybackItem] = []
        var current: Int?
        var successor: Int?
    }

    /// The player's tuning, with a long open limit: the limit is for files that hang,
    /// and none of these tests has one, while on a machine loaded by the tests running in
    /// parallel an opening thread was not scheduled within the daemon's 3 s.
    static func tuning(_ base: PlaybackTuning = .init()) -> PlaybackTuning {
        var tuning = base
        tuning.openLimit = .seconds(30)
        return tuning
    }

    init(
        output: @escaping @Sendable () -> any AudioOutput,
        followers: @escaping @Sendable () -> [any AudioOutput] = { [] }, tuning: PlaybackTuning = PlayerHarness.tuning()
    ) {
        player = AudioPlayer(makeOutput: output, makeFollowers: followers, decoders: .standard, tuning: tuning)
        let task = Task { [player, state] in
            for await event in player.events {
                state.log.withLock { $0.append(event) }
                Self.react(to: event, player: player, queue: state.queue)
            }
        }
        consumer.withLock { $0 = task }
    }

    /// An ALSA output into `capture`'s file PCM.
    convenience init(capture: ALSACapture, pacing: ALSAOutput.Pacing, tuning: PlaybackTuning = PlayerHarness.tuning()) {
        let config = capture.configFile
        self.init(output: { ALSAOutput(device: ALSACapture.device, configFile: config, pacing: pacing) }, tuning: tuning)
    }

    var events: [AudioEvent] { state.log.withLock { $0 } }

    /// Plays `items` in order as the engine would: the first paused, its successor set,
    /// then resumed, so the first join never races the test.
    func playQueue(_ items: [PlaybackItem]) {
        state.queue.withLock {
            $0.items = items
            $0.current = 0
            $0.successor = items.count > 1 ? 1 : nil
        }
        player.play(items[0], paused: true)
        player.setNext(items.count > 1 ? items[1] : nil)
        player.resume()
    }

    private static func react(to event: AudioEvent, player: AudioPlayer, queue: borrowing Mutex<QueueState>) {
        queue.withLock { state in
            func index(of token: UInt64) -> Int? { state.items.firstIndex { $0.token == token } }
            switch event {
            case .started(let token):
                guard let started = index(of: token) else { return }
                state.current = started
                let next = started + 1 < state.items.count ? started + 1 : nil
                state.successor = next
                player.setNext(next.map { state.items[$0] })
            case .failed(let token, _):
                // The stream ends at a failure, of the current item or of its successor:
                // as the engine does, play the one after it.
                guard let failed = index(of: token), failed == state.successor || failed == state.current
                else { return }
                let next = failed + 1
                guard next < state.items.count else { return }
                state.current = next
                state.successor = next + 1 < state.items.count ? next + 1 : nil
                player.play(state.items[next])
                player.setNext(state.successor.map { state.items[$0] })
            case .finished(let token):
                guard let ended = index(of: token), ended + 1 < state.items.count else { return }
                let next = ended + 1
                state.current = next
                state.successor = next + 1 < state.items.count ? next + 1 : nil
                player.play(state.items[next])
                player.setNext(state.successor.map { state.items[$0] })
            case .outputError, .fadeEnded:
                return
            }
        }
    }

    /// Waits until `condition` holds for the events (a hang guard, not a timing check).
    func waitForEvents(_ what: String, _ condition: ([AudioEvent]) -> Bool) async throws {
        do {
            try await waitUntil(what) { condition(self.events) }
        } catch let timeout as HarnessTimeout {
            throw HarnessTimeout(description: "\(timeout.description); events: \(events)")
        }
    }

    func waitFor(_ event: AudioEvent) async throws {
        try await waitForEvents("\(event)") { $0.contains(event) }
    }

    /// Runs `action` on the player the moment `condition` holds for its snapshot, from a
    /// thread of its own that polls every millisecond; returns the snapshot that held.
    /// For commands that must land at a point of a stream a paced device plays on in real
    /// time: the test's task cannot be relied on to run again in time, since on a loaded
    /// machine the cooperative pool (one thread per core, shared by every test running
    /// in parallel, some of them blocking) may not get to it for seconds.
    @discardableResult
    func act(
        when what: String, limit: Duration = .seconds(60), _ condition: @escaping @Sendable (AudioSnapshot) -> Bool,
        _ action: @escaping @Sendable (AudioPlayer) -> Void
    ) async throws -> AudioSnapshot {
        let player = self.player
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                let deadline = ContinuousClock.now + limit
                while true {
                    let snapshot = player.snapshot
                    if condition(snapshot) {
                        action(player)
                        return continuation.resume(returning: snapshot)
                    }
                    if ContinuousClock.now > deadline {
                        return continuation.resume(throwing: HarnessTimeout(description: "gave up waiting for \(what)"))
                    }
                    usleep(1000)
                }
            }
            thread.name = "harness-act"
            thread.start()
        }
    }

    /// Ends the thread (the device plays out and closes) and the event consumer. The
    /// blocking part runs on a thread of its own, not on the cooperative pool.
    func shutdown() async {
        let player = self.player
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                player.shutdown()
                continuation.resume()
            }.start()
        }
        let task = consumer.withLock { $0 }
        await task?.value
    }
}

struct HarnessTimeout: Error, CustomStringConvertible {
    var description: String
}

/// Polls `condition` every 5 ms; gives up after `limit` so a broken player fails the
/// test instead of hanging it. Not a timing assertion: the limit is far beyond need.
func waitUntil(_ what: String, limit: Duration = .seconds(60), _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        if ContinuousClock.now > deadline {
            // On a loaded machine this task can wake long past the deadline, before the
            // harness's event task (the same cooperative pool, held up by tests that
            // block its threads) has recorded what came meanwhile: it gets one more look.
            try await Task.sleep(for: .seconds(1))
            if condition() { return }
            throw HarnessTimeout(description: "gave up waiting for \(what)")
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

extension SampleEntry {
    func item(_ token: UInt64) -> PlaybackItem { PlaybackItem(token: token, path: path) }
}

/// The interleaved frames `from..<to` of `samples`, as far as `samples` has them (a
/// short capture gives a short or empty slice, for the expectations to report).
func frames(_ samples: [Int16], _ range: Range<Int>, channels: Int) -> ArraySlice<Int16> {
    let end = min(range.upperBound * channels, samples.count)
    let start = min(max(0, range.lowerBound * channels), end)
    return samples[start..<end]
}
