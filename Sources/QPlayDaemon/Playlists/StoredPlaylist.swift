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
        var text = text
        text.makeContiguousUTF8()
        let prefix = musicDirectory.map { Array(($0.hasSuffix("/") ? $0 : $0 + "/").utf8) }
        return text.utf8.withContiguousStorageIfAvailable { parse(bytes: $0, prefix: prefix) } ?? StoredPlaylist()
    }

    /// Lines are found in the bytes (a 10,000-entry playlist is read in milliseconds,
    /// where splitting the text into characters took most of a load): a line ends at LF,
    /// and any CRs before it are dropped.
    private static func parse(bytes: UnsafeBufferPointer<UInt8>, prefix: [UInt8]?) -> StoredPlaylist {
        var entries: [Entry] = []
        var pending: ExtendedInfo?
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            let next = end + 1
            while end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            var first = start
            while first < end && (bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t")) { first += 1 }
            defer { start = next }
            if first == end { continue }
            if bytes[first] == UInt8(ascii: "#") {
                let comment = String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<end]), as: UTF8.self)
                if comment.hasPrefix("#EXTINF:") { pending = extendedInfo(comment.dropFirst("#EXTINF:".count)) }
                continue
            }
            var pathStart = start
            if let prefix, end - start >= prefix.count, bytes[start..<start + prefix.count].elementsEqual(prefix) {
                pathStart += prefix.count
            }
            let path = String(decoding: UnsafeBufferPointer(rebasing: bytes[pathStart..<end]), as: UTF8.self)
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
