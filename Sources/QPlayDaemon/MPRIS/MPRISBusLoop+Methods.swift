import CSDBus
import QPlayEngine
import QPlayModel

/// The methods of org.mpris.MediaPlayer2 and org.mpris.MediaPlayer2.Player, each the
/// engine command a key or a widget means (docs/MPRIS.md). Commands that cannot apply
/// (Seek with nothing loaded, SetPosition for another track) have no effect, as MPRIS
/// asks; only OpenUri and malformed arguments answer errors.
extension MPRISBusLoop {
    func answer(_ call: OpaquePointer, error: UnsafeMutablePointer<sd_bus_error>) -> Int32 {
        let member = sd_bus_message_get_member(call).map { String(cString: $0) } ?? ""
        var seeked = false
        switch member {
        case "Raise", "Quit":
            // CanRaise and CanQuit are false: no window, and the daemon outlives its clients.
            break
        case "Next":
            perform { engine, now, at in engine.next(now: now, position: at) }
        case "Previous":
            perform { engine, now, at in engine.previous(now: now, position: at) }
        case "Pause":
            perform { engine, now, at in engine.pause(now: now, position: at) }
        case "PlayPause":
            perform { engine, now, at in engine.toggle(now: now, position: at) }
        case "Stop":
            perform { engine, now, at in engine.stop(now: now, position: at) }
        case "Play":
            perform { engine, now, at in engine.play(now: now, position: at) }
        case "Seek":
            var offset: Int64 = 0
            let result = qplay_mpris_read_int64(call, &offset)
            guard result >= 0 else { return result }
            let delta = MPRISTime.seconds(offset)
            seeked = seek { engine, now, at throws(EngineError) in
                guard engine.playbackState != .stopped else { return (false, EngineOutput()) }
                return (true, try engine.seek(by: delta, now: now, position: at))
            }
        case "SetPosition":
            var trackID: UnsafePointer<CChar>?
            var position: Int64 = 0
            var result = qplay_mpris_read_object_path(call, &trackID)
            if result >= 0 { result = qplay_mpris_read_int64(call, &position) }
            guard result >= 0, let trackID else { return result }
            let target = String(cString: trackID)
            let microseconds = position
            seeked = seek { engine, now, at throws(EngineError) in
                // A trackid of another entry is stale (the track changed since the
                // client looked): ignored, as is a position outside the track.
                let status = engine.status(position: at)
                guard let entry = status.entry, status.state != .stopped, MPRISMetadata.trackID(entry.id) == target,
                    microseconds >= 0, MPRISTime.seconds(microseconds) <= (status.duration ?? .infinity)
                else { return (false, EngineOutput()) }
                return (true, try engine.seek(to: MPRISTime.seconds(microseconds), now: now, position: at))
            }
        case "OpenUri":
            var uri: UnsafePointer<CChar>?
            let result = qplay_mpris_read_string(call, &uri)
            guard result >= 0, let uri else { return result }
            if let failure = open(String(cString: uri)) {
                return sd_bus_error_set(error, failure.name, failure.message)
            }
        default:
            return sd_bus_error_set(error, "org.freedesktop.DBus.Error.UnknownMethod", "qplay has no method \(member)")
        }
        let result = qplay_mpris_reply_empty(call)
        refresh(seeked: seeked)
        return result
    }

    /// Runs an engine command on the player and waits for it; an engine error (nothing
    /// to act on) is logged, not answered: media keys are pressed blindly.
    func perform(_ command: @escaping @Sendable (inout PlayerEngine, Duration, Double) -> EngineOutput) {
        let player = self.player
        let failure = BlockingAwait.run { () async -> EngineError? in
            do throws(EngineError) {
                try await player.perform(command)
                return nil
            } catch {
                return error
            }
        }
        if let failure { log.debug("MPRIS command not done: \(failure)") }
    }

    /// A seek that may decline; true when it happened.
    private func seek(
        _ command: @escaping @Sendable (inout PlayerEngine, Duration, Double) throws(EngineError) -> (Bool, EngineOutput)
    ) -> Bool {
        let player = self.player
        let outcome = BlockingAwait.run { () async -> Result<Bool, EngineError> in
            do throws(EngineError) {
                return .success(try await player.perform(command))
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let done): return done
        case .failure(let error):
            log.debug("MPRIS seek not done: \(error)")
            return false
        }
    }
}
