/// Fills `qplay status --format` / `watch --format` templates (README.md, the qplay command).
public enum StatusFormat {
    public static let placeholders = [
        "title", "artist", "album", "album_artist", "track", "year", "genre", "position", "duration",
        "remaining", "state", "icon", "volume", "index", "queue_length", "file",
        // Level meter
        "meter", "level_db",
        // Audiobooks
        "chapter",
    ]

    /// Width of `{meter}` in characters.
    public static let meterWidth = 8

    /// Whether a template shows the level (a watch then subscribes to `level` events).
    public static func showsLevel(_ template: String?) -> Bool {
        guard let template, let pieces = try? pieces(of: template) else { return false }
        return pieces.contains { $0 == .placeholder("meter") || $0 == .placeholder("level_db") }
    }

    /// What is wrong with a template; the message says where and how to fix it.
    public enum TemplateError: Error, Sendable, Equatable, CustomStringConvertible {
        case unknownPlaceholder(String)
        /// A `{` (at this 1-based character) with no `}` after it.
        case unclosedBrace(at: Int)
        /// A single `}` (at this 1-based character) that closes nothing.
        case strayClosingBrace(at: Int)

        public var description: String {
            switch self {
            case .unknownPlaceholder(let name):
                "unknown placeholder {\(name)} (placeholders: "
                    + StatusFormat.placeholders.map { "{\($0)}" }.joined(separator: " ") + "; {{ and }} are literal braces)"
            case .unclosedBrace(let offset):
                "the { at character \(offset) is never closed (write {{ for a literal {)"
            case .strayClosingBrace(let offset):
                "the } at character \(offset) closes no placeholder (write }} for a literal })"
            }
        }
    }

    /// A template cut into literal text and placeholder names.
    enum Piece: Equatable {
        case text(String)
        case placeholder(String)
    }

    /// Checks a template: `{name}` must name a placeholder, `{{` and `}}` stand for
    /// literal braces (as in Python's `str.format`), any other brace is an error.
    public static func validate(_ template: String) throws(TemplateError) {
        _ = try pieces(of: template)
    }

    static func pieces(of template: String) throws(TemplateError) -> [Piece] {
        var pieces: [Piece] = []
        var text = ""
        let characters = Array(template)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            switch character {
            case "{" where next == "{", "}" where next == "}":
                text.append(character)
                index += 2
            case "{":
                guard let close = characters[(index + 1)...].firstIndex(of: "}") else {
                    throw .unclosedBrace(at: index + 1)
                }
                let name = String(characters[(index + 1)..<close])
                guard placeholders.contains(name) else { throw .unknownPlaceholder(name) }
                if !text.isEmpty { pieces.append(.text(text)) }
                text = ""
                pieces.append(.placeholder(name))
                index = close + 1
            case "}":
                throw .strayClosingBrace(at: index + 1)
            default:
                text.append(character)
                index += 1
            }
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        return pieces
    }

    /// The template filled from `status`; absent values become empty. Stopped: the empty
    /// string (a status bar then hides the module). A template `validate` refuses is
    /// printed as written (qplay checks templates before it asks the daemon).
    /// `escaping` is applied to each placeholder's value, not to the template's own text:
    /// for waybar, tags and titles become literal Pango text while the template may
    /// still hold markup of its own.
    public static func render(
        _ template: String, status: Status, escaping escape: (String) -> String = { $0 }
    ) -> String {
        guard status.state != .stopped else { return "" }
        guard let pieces = try? pieces(of: template) else { return template }
        var output = ""
        for piece in pieces {
            switch piece {
            case .text(let text): output += text
            case .placeholder(let name): output += escape(value(of: name, in: status) ?? "")
            }
        }
        return output
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
        case "icon": return icon(status)
        case "volume": return "\(status.volume)"
        case "index": return status.index.map { "\($0 + 1)" } ?? ""
        case "queue_length": return "\(status.queueLength)"
        case "file": return track?.path ?? ""
        case "meter": return status.level.map { LevelBar.render($0.loudestRMS, width: meterWidth) } ?? ""
        case "level_db": return status.level.map { LevelBar.text($0.loudestRMS) } ?? ""
        case "chapter":
            guard let chapters = status.chapters, let index = status.chapter, chapters.indices.contains(index) else {
                return ""
            }
            return Listing.chapterTitle(chapters[index], index)
        default: return nil
        }
    }

    /// `{icon}`: ⚠ while the daemon means to play but its output fails (no sound card,
    /// device busy; it retries), since ▶ would claim audio that nobody hears; else the
    /// state's symbol.
    public static func icon(_ status: Status) -> String {
        isSilentlyPlaying(status) ? "⚠" : icon(status.state)
    }

    /// Playing as far as the queue goes, while the output cannot be opened or written:
    /// `output.error` is set and no sound comes out.
    public static func isSilentlyPlaying(_ status: Status) -> Bool {
        status.state == .playing && status.output.error != nil
    }

    /// The state as the symbol media players show: ▶ playing, ⏸ paused, nothing when
    /// stopped (U+23F8 needs a symbol font, e.g. Symbola or Noto Sans Symbols 2).
    public static func icon(_ state: PlayerState) -> String {
        switch state {
        case .playing: "▶"
        case .paused: "⏸"
        case .stopped: ""
        }
    }

    /// What a status line shows without a template: `Artist – Title`, or the title alone.
    public static func defaultText(_ status: Status) -> String {
        guard status.state != .stopped, let track = status.track else { return "" }
        if let artist = track.artist, !artist.isEmpty { return "\(artist) – \(track.title)" }
        return track.title
    }
}
