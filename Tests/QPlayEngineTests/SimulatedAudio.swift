import QPlayEngine
import Testing

/// A model of the audio side, for tests that follow playback through several track
/// changes: it carries out the engine's commands (play, the gapless successor, pause,
/// seek, scan) against simulated time and reports starts and ends as AudioPlayer does.
/// Pure logic: the real audio side is tested with real libmpg123 and ALSA elsewhere.
struct SimulatedAudio {
    enum Report: Equatable {
        case started(UInt64)
        case finished(UInt64)
    }

    var current: PlaybackRequest?
    var successor: PlaybackRequest?
    var position: Double = 0
    var paused = false
    var scanRate: Double?
    var volume = 100
    /// The fade gain's target and how long the last fade command said to take.
    var fade: (to: Double, over: Double) = (1, 0)
    /// Titles in the order they began to be heard.
    var heard: [String] = []
    var reports: [Report] = []

    mutating func apply(_ output: EngineOutput) {
        for command in output.audio {
            switch command {
            case .play(let request, let from, let paused):
                current = request
                successor = nil
                position = from
                self.paused = paused
                begin(request)
            case .setNext(let request):
                successor = request
            case .pause:
                paused = true
            case .resume:
                paused = false
            case .stop:
                current = nil
                successor = nil
                position = 0
                scanRate = nil
            case .seek(let target):
                position = target
            case .volume(let percent):
                volume = percent
            case .scan(let rate):
                scanRate = rate
            case .endScan:
                scanRate = nil
            case .fade(let target, let seconds):
                fade = (target, seconds)
            }
        }
    }

    /// Plays for `seconds` of real time, or until the next track boundary; answers the
    /// real time used.
    mutating func run(upTo seconds: Double) -> Double {
        guard let playing = current, !paused else { return seconds }
        let rate = scanRate ?? 1
        if rate < 0 {
            position = max(0, position + rate * seconds)
            return seconds
        }
        let untilEnd = (playing.entry.track.duration - position) / rate
        if untilEnd > seconds {
            position += rate * seconds
            return seconds
        }
        if let next = successor {
            current = next
            successor = nil
            position = 0
            begin(next)
        } else {
            current = nil
            position = 0
            reports.append(.finished(playing.token))
        }
        return max(0, untilEnd)
    }

    private mutating func begin(_ request: PlaybackRequest) {
        heard.append(request.entry.track.title)
        reports.append(.started(request.token))
    }
}

extension Harness {
    /// Sends an engine output to the simulated audio side, then its reports back to the
    /// engine, until both are quiet.
    mutating func send(_ output: EngineOutput) {
        audio.apply(output)
        while !audio.reports.isEmpty {
            let report = audio.reports.removeFirst()
            let answer: EngineOutput
            switch report {
            case .started(let token): answer = engine.audioStarted(token: token, now: clock.now)
            case .finished(let token): answer = engine.audioFinished(token: token, now: clock.now)
            }
            audio.apply(answer)
        }
        position = audio.position
    }

    /// Lets `seconds` of real time pass: the simulated audio plays, the clock moves, and
    /// the engine's ticks run at their deadlines.
    mutating func run(_ seconds: Double) {
        var left = seconds
        while left > 1e-9 {
            var step = left
            if let deadline = engine.nextDeadline {
                step = min(step, max(0, (deadline - clock.now).secondsValue))
            }
            let used = audio.run(upTo: step)
            clock.advance(.seconds(used))
            left -= used
            send(EngineOutput())
            if let deadline = engine.nextDeadline, clock.now >= deadline {
                send(engine.tick(now: clock.now, position: audio.position))
                if engine.nextDeadline == deadline {
                    Issue.record("tick at \(clock.now) left the deadline \(deadline) in place")
                    return
                }
            }
        }
        position = audio.position
    }
}

extension Duration {
    var secondsValue: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
