import Logging
import QPlayAudio
import QPlayEngine
import QPlayLibrary
import QPlayModel
import SystemPackage

/// Saving: the state after each change, each resume point as it is taken, the position
/// once a second while playing, and the retry while the disk fails.
extension PlayerService {
    /// Writes what changed since the last save, and the position with it (so after a
    /// track change the position never belongs to the entry before).
    func saveNow() {
        guard let store else { return }
        let position = self.position
        do {
            try store.save(engine.persistedState(position: position), position: savedPosition(position))
            if storageError != nil { storageRecovered() }
        } catch .closed {
            // Shut down: an audio report arriving after the last save changes nothing.
        } catch {
            storageFailed(error)
        }
    }

    /// Each resume point is written when the engine takes it (one small transaction),
    /// so a `kill -9` loses none. A failed write loses that point only: the track then
    /// starts where its previous point was, or from 0.
    func saveResumePoints(_ changes: [ResumePointChange]) {
        guard let store else { return }
        for change in changes {
            do {
                try store.setResumePoint(track: change.track, position: change.position)
            } catch {
                log.error("could not save the resume point of track \(change.track): \(error)")
            }
        }
    }

    private func storageFailed(_ error: StateStoreError) {
        let message: String
        switch error {
        case .writeFailed(let path, let reason): message = "cannot write \(path): \(reason)"
        default: message = error.description
        }
        if storageError != message {
            log.error("\(message); changes are kept in memory and saved when the disk works again")
            storageError = message
            events.publish(.storage(message))
        }
        guard saveRetry == nil else { return }
        saveRetry = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.saveRetryInterval)
                guard !Task.isCancelled else { return }
                await self?.saveNow()
            }
        }
    }

    private func storageRecovered() {
        saveRetry?.cancel()
        saveRetry = nil
        storageError = nil
        log.notice("the player state is saved again")
        events.publish(.storage(nil))
    }

    private func savedPosition(_ position: Double) -> SavedPosition {
        SavedPosition(entry: engine.queue.current, seconds: position)
    }

    func savePosition() {
        // A position write that failed in the background is a failing disk like any
        // other: reported, and retried by saving everything.
        if let error = store?.takePositionWriteError() { storageFailed(error) }
        guard engine.playbackState == .playing else { return }
        let position = self.position
        store?.savePosition(entry: engine.queue.current, seconds: position)
    }
}
