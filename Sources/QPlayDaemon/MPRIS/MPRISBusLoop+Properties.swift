import CSDBus
import QPlayEngine
import QPlayModel

#if canImport(Glibc)
import Glibc
#endif

/// Property reads and writes. The Player's properties come from the last view (kept
/// current by core events); Position is read from the player on demand, as MPRIS
/// clients expect of a property that sends no change signals.
extension MPRISBusLoop {
    /// What qplay decodes (docs/BEHAVIOUR.md, Audio), as the MIME types file managers and
    /// desktops use: the format table's, so a new format's row adds its own.
    static let mimeTypes = AudioFileFormat.allMimeTypes
    /// Separates the strings of a list handed to the C side; no tag holds it.
    static let listSeparator: CChar = 0x1F

    func read(
        interface: String, property: String, into reply: OpaquePointer, error: UnsafeMutablePointer<sd_bus_error>
    ) -> Int32 {
        if interface == QPLAY_MPRIS_ROOT_INTERFACE {
            switch property {
            case "CanQuit", "CanRaise", "HasTrackList": return qplay_mpris_append_bool(reply, 0)
            case "Identity", "DesktopEntry": return qplay_mpris_append_string(reply, "qplay")
            case "SupportedUriSchemes":
                return qplay_mpris_append_string_list(
                    reply, Self.uriSchemes.joined(separator: "\u{1F}"), Self.listSeparator)
            case "SupportedMimeTypes":
                return qplay_mpris_append_string_list(
                    reply, Self.mimeTypes.joined(separator: "\u{1F}"), Self.listSeparator)
            default: return unknown(property, error)
            }
        }
        if view == nil { refresh() }
        guard let view else { return -EIO }
        switch property {
        case "PlaybackStatus": return qplay_mpris_append_string(reply, view.playbackStatus)
        case "LoopStatus": return qplay_mpris_append_string(reply, view.loopStatus)
        case "Shuffle": return qplay_mpris_append_bool(reply, view.shuffle ? 1 : 0)
        case "Volume": return qplay_mpris_append_double(reply, view.volume)
        case "Metadata": return append(view.metadata, to: reply)
        case "Position":
            let player = self.player
            let position = BlockingAwait.run { await player.snapshot().status.position }
            return qplay_mpris_append_int64(reply, MPRISTime.microseconds(position))
        case "Rate", "MinimumRate", "MaximumRate": return qplay_mpris_append_double(reply, 1)
        case "CanGoNext": return qplay_mpris_append_bool(reply, view.canGoNext ? 1 : 0)
        case "CanGoPrevious": return qplay_mpris_append_bool(reply, view.canGoPrevious ? 1 : 0)
        case "CanPlay": return qplay_mpris_append_bool(reply, view.canPlay ? 1 : 0)
        case "CanPause": return qplay_mpris_append_bool(reply, view.canPause ? 1 : 0)
        case "CanSeek": return qplay_mpris_append_bool(reply, view.canSeek ? 1 : 0)
        case "CanControl": return qplay_mpris_append_bool(reply, 1)
        default: return unknown(property, error)
        }
    }

    /// LoopStatus, Shuffle, Volume and Rate (sd-bus refuses writes of the others, and
    /// values of the wrong type, itself).
    func write(property: String, from value: OpaquePointer, error: UnsafeMutablePointer<sd_bus_error>) -> Int32 {
        switch property {
        case "LoopStatus":
            var text: UnsafePointer<CChar>?
            let result = qplay_mpris_read_string(value, &text)
            guard result >= 0, let text else { return result }
            guard let mode = MPRISPlayerView.repeatMode(loopStatus: String(cString: text)) else {
                return sd_bus_error_set(
                    error, "org.freedesktop.DBus.Error.InvalidArgs",
                    "LoopStatus is None, Track or Playlist, not \(String(cString: text))")
            }
            perform { engine, now, at in engine.setRepeat(mode, now: now, position: at) }
        case "Shuffle":
            var on: Int32 = 0
            let result = qplay_mpris_read_bool(value, &on)
            guard result >= 0 else { return result }
            let shuffle = on != 0
            perform { engine, now, at in engine.setShuffle(shuffle, now: now, position: at) }
        case "Volume":
            var level = 0.0
            let result = qplay_mpris_read_double(value, &level)
            guard result >= 0 else { return result }
            guard level.isFinite else {
                return sd_bus_error_set(error, "org.freedesktop.DBus.Error.InvalidArgs", "Volume must be a number")
            }
            // qplay's volume has 101 steps: clamped, then the nearest one.
            let percent = Int((min(1, max(0, level)) * 100).rounded())
            perform { engine, now, at in engine.setVolume(percent, now: now, position: at) }
        case "Rate":
            // MPRIS makes Rate writable even for a player with only the normal speed
            // (MinimumRate = MaximumRate = 1.0): a write is accepted and, as qplay has no
            // other speed, changes nothing, whatever the value (docs/MPRIS.md).
            var rate = 0.0
            let result = qplay_mpris_read_double(value, &rate)
            return result < 0 ? result : 0
        default:
            return sd_bus_error_set(
                error, "org.freedesktop.DBus.Error.PropertyReadOnly", "the property \(property) is read-only")
        }
        refresh()
        return 0
    }

    private func append(_ metadata: MPRISMetadata, to reply: OpaquePointer) -> Int32 {
        var result = qplay_mpris_open_dict(reply)
        for (key, value) in metadata.fields where result >= 0 {
            switch value {
            case .string(let text): result = qplay_mpris_dict_string(reply, key, text)
            case .strings(let texts):
                result = qplay_mpris_dict_string_list(
                    reply, key, texts.joined(separator: "\u{1F}"), Self.listSeparator)
            case .objectPath(let path): result = qplay_mpris_dict_object_path(reply, key, path)
            case .int64(let number): result = qplay_mpris_dict_int64(reply, key, number)
            case .int32(let number): result = qplay_mpris_dict_int32(reply, key, number)
            }
        }
        return result < 0 ? result : qplay_mpris_close_dict(reply)
    }

    private func unknown(_ property: String, _ error: UnsafeMutablePointer<sd_bus_error>) -> Int32 {
        sd_bus_error_set(error, "org.freedesktop.DBus.Error.UnknownProperty", "qplay has no property \(property)")
    }
}
