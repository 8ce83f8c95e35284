import Logging
import QPlayAudio
import QPlayEngine
import QPlayLibrary
import QPlayModel
import SystemPackage

/// What the audio thread tells back, and the engine's own deadline: both run the engine
/// with the time and go through `apply` like any command.
extension PlayerService {
    /// Tap/hold: the engine says when it next needs the time (threshold, maximum hold).
    func armDeadline() {
        deadline?.cancel()
        deadline = nil
        guard let due = engine.nextDeadline else { return }
        let instant = origin + due
        deadline = Task { [weak self] in
            try? await Task.sleep(until: instant, clock: .continuous)
            guard !Task.isCancelled else { return }
            await self?.tick()
        }
    }

    private func tick() {
        apply(engine.tick(now: now, position: position))
    }

    func handle(_ event: AudioEvent) {
        switch event {
        case .started(let token):
            apply(engine.audioStarted(token: token, now: now))
        case .finished(let token):
            apply(engine.audioFinished(token: token, now: now))
        case .failed(let token, let reason):
            apply(engine.audioFailed(token: token, reason: reason, now: now))
        case .fadeEnded:
            apply(engine.audioFadeEnded(now: now, position: position))
        case .outputError(let output, let message):
            if let message {
                // The message begins with the output's name.
                log.error("output \(message)")
                let reason = message.hasPrefix(output + ": ") ? String(message.dropFirst(output.count + 2)) : message
                events.publish(.outputError(output: output, reason: reason))
            } else {
                log.info("output \(output) recovered")
            }
            events.publish(.player(snapshot()))
        }
    }
}
