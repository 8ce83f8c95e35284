/// One stored playlist as its file holds it: the entries in order, each a path relative
/// to the music directory as written (a path that names no indexed track is kept, so a
/// track that comes back is found again), with the `#EXTINF` line before it when there
/// was one. The format is M3U as MPD reads and writes it: one path a line, `#` lines
/// skipped by MPD; qplay writes `#EXTM3U` and an `#EXTINF:SECONDS,ARTIST - TITLE` line
/// before each track it knows.
struct StoredPlaylist: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        var path: String
        var info: ExtendedInfo?

        init(path: String, info: ExtendedInfo? = nil) {
            self.path = path
            self.info = info
        }
    }

    /// `#EXTINF:SECONDS,LABEL`: the length in whole seconds (-1 unknown) and the label,
    /// `ARTIST - TITLE` when qplay writes it.
    struct ExtendedInfo: Sendable, Equatable {
        var seconds: Int
        var label: String
    }

    var entries: [Entry]

    init(entries: [Entry] = []) {
        self.entries = entries
    }

    var paths: [String] { entries.map(\.path) }

    /// Reads a playlist file's text. Blank lines and comments are skipped; `\r\n` line
    /// ends are read; an absolute path inside `musicDirectory` becomes relative to it
    /// (MPD does the same), any other absolute path or URL is kept as written (it names
    /// no track of the library, so it is listed as missing).
    static func parse(_ text: String, musicDirectory: String? = nil) -> StoredPlaylist {
        var entries: [Entry] = []
        var pending: ExtendedInfo?
        let prefix = musicDirectory.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            var line = Substring(rawLine)
            while line.last == "\r" { line = line.dropLast() }
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("#") {
                if trimmed.hasPrefix("#EXTINF:") { pending = extendedInfo(trimmed.dropFirst("#EXTINF:".count)) }
                continue
            }
            var path = String(line)
            if let prefix, path.hasPrefix(prefix) { path = String(path.dropFirst(prefix.count)) }
            entries.append(Entry(path: path, info: pending))
            pending = nil
        }
        return StoredPlaylist(entries: entries)
    }

    private static func extendedInfo(_ text: Substring) -> ExtendedInfo? {
        guard let comma = text.firstIndex(of: ",") else { return nil }
        let number = text[..<comma].filter { $0 != " " }
        guard let seconds = Double(number) else { return nil }
        return ExtendedInfo(seconds: seconds.isFinite ? Int(seconds.rounded(.down)) : -1, label: String(text[text.index(after: comma)...]))
    }

    /// The file's text: `#EXTM3U`, then each entry's `#EXTINF` line (when known) and path.
    func rendered() -> String {
        var text = "#EXTM3U\n"
        for entry in entries {
            if let info = entry.info {
                text += "#EXTINF:\(info.seconds),\(Self.oneLine(info.label))\n"
            }
            text += Self.oneLine(entry.path) + "\n"
        }
        return text
    }

    /// A line break inside a tag would start a line of its own in the file.
    private static func oneLine(_ text: String) -> String {
        guard text.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        return String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
    }
}
