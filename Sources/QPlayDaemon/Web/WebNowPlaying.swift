import QPlayProtocol

/// What the served page shows of the player before its scripts run: the words and icon
/// player.js's `apply` would draw from the same status, escaped for HTML (the slots are
/// element text and quoted attribute values), so that a title cannot add markup.
enum WebNowPlaying {
    static let playIcon = "M7 4v16l13-8z"
    static let pauseIcon = "M6 4h4v16H6zM14 4h4v16h-4z"

    /// `status` nil (the daemon did not answer): the page as if nothing played; its
    /// scripts draw the player as soon as the status comes over the WebSocket.
    static func slots(_ status: QPlayProtocol.Status?) -> [WebPageTemplate.Slot: String] {
        let track = status?.track
        let playing = status?.state == .playing
        let subtitle = [track?.artist, track?.album].compactMap { $0 }.filter { !$0.isEmpty }
        return [
            .documentTitle: escaped(track.map { "\($0.title) – qplay" } ?? "qplay"),
            .title: escaped(track?.title ?? "Nothing playing"),
            .subtitle: escaped(subtitle.joined(separator: " – ")),
            .toggleLabel: playing ? "Pause" : "Play",
            .toggleIcon: playing ? pauseIcon : playIcon,
        ]
    }

    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            // A NUL in element text is a parse error that browsers turn into nothing or
            // U+FFFD; the scripts would show the title as it is.
            case "\0": out += "\u{FFFD}"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
