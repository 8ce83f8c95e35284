/// Fills `qplay status --format` / `watch --format` templates (SPEC §7).
public enum StatusFormat {
    public static let placeholders = [
        "title", "artist", "album", "album_artist", "track", "year", "genre", "position", "duration",
        "remaining", "state", "volume", "index", "queue_length", "file",
    ]

    /// The template filled from `status`; absent values become empty, unknown
    /// placeholders stay as written. Stopped: the empty string (a status bar then hides
    /// the module).
    public static func render(_ template: String, status: Status) -> String {
        guard status.state != .stopped else { return "" }
        var output = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            output += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}") else {
                // An unclosed `{`: the rest stays as written (the text before it is out).
                rest = rest[open...]
                break
            }
            let name = String(rest[afterOpen..<close])
            if let value = value(of: name, in: status) {
                output += value
            } else {
                output += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return output + rest
    }

    /// A placeholder's text; nil for a name that is no placeholder.
    static func value(of name: String, in status: Status) -> String? {
        let track = status.track
        switch name {
        case "title": return track?.title ?? ""
        case "artist": return track?.artist ?? ""
        case "album": return track?.album ?? ""
        case "album_artist": return track?.albumArtist ?? ""
        case "track": return track?.track.map(String.init) ?? ""
        case "year": return track?.year.map(String.init) ?? ""
        case "genre": return track?.genre ?? ""
        case "position": return status.position.map(TimeText.format) ?? ""
        case "duration": return status.duration.map(TimeText.format) ?? ""
        case "remaining":
            guard let duration = status.duration else { return "" }
            return TimeText.format(max(0, duration - (status.position ?? 0)))
        case "state": return status.state.rawValue
        case "volume": return "\(status.volume)"
        case "index": return status.index.map { "\($0 + 1)" } ?? ""
        case "queue_length": return "\(status.queueLength)"
        case "file": return track?.path ?? ""
        default: return nil
        }
    }

    /// What a status line shows without a template: `Artist – Title`, or the title alone.
    public static func defaultText(_ status: Status) -> String {
        guard status.state != .stopped, let track = status.track else { return "" }
        if let artist = track.artist, !artist.isEmpty { return "\(artist) – \(track.title)" }
        return track.title
    }
}
