import FoundationEssentials

/// The streams an internet radio playlist lists: an `.m3u`/`.m3u8` file (extended with
/// `#EXTINF` titles, or plain) or a `.pls` file, as a station's "listen" link serves it.
/// Which one it is comes from the content, not the name or the content type (stations
/// serve `.pls` as `audio/x-mpegurl` and the reverse). Entries that are not `http`/`https`
/// URLs are skipped with their reasons; a body with none left is an error that says why.
public struct StreamPlaylist: Equatable, Sendable {
    public enum Format: String, Equatable, Sendable { case m3u, pls }

    public struct Entry: Equatable, Sendable {
        /// Absolute: relative entries are resolved against the playlist's URL.
        public var url: URL
        /// `#EXTINF`'s title or `.pls`'s `TitleN`; nil when the file gives none.
        public var title: String?

        public init(url: URL, title: String? = nil) {
            self.url = url
            self.title = title
        }
    }

    /// A line that named no usable stream, with its number (from 1) and the reason.
    public struct SkippedLine: Equatable, Sendable {
        public var line: Int
        public var reason: String

        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    public var format: Format
    public var entries: [Entry]
    public var skipped: [SkippedLine]

    /// Bodies past this size are not playlists (a station's lists a handful of mirrors).
    public static let maximumBytes = 1 << 20

    /// Parses a playlist body fetched from `base` (nil: entries must be absolute URLs).
    public static func parse(_ body: [UInt8], base: URL?) throws(StreamPlaylistError) -> StreamPlaylist {
        guard body.count <= maximumBytes else { throw .tooLarge(body.count) }
        var bytes = body[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let lines = TextBytes.lines(bytes)
        guard let first = lines.firstIndex(where: { !$0.isEmpty }) else { throw .empty }
        if looksLikeHTML(lines[first]) { throw .html }
        if bytes.contains(0) { throw .binary }
        let playlist =
            if TextBytes.hasPrefix(lines[first], caseInsensitive: "[playlist]") {
                try parsePLS(lines, base: base)
            } else {
                try parseM3U(lines, base: base)
            }
        guard !playlist.entries.isEmpty else {
            if let reason = playlist.skipped.first { throw .noStreams(firstProblem: reason) }
            throw .empty
        }
        return playlist
    }

    /// A web page where the playlist should be (a station's landing page, a captive
    /// portal, an error page served with 200).
    static func looksLikeHTML(_ firstLine: ArraySlice<UInt8>) -> Bool {
        ["<!doctype html", "<html", "<head", "<body", "<?xml", "<!--"].contains {
            TextBytes.hasPrefix(firstLine, caseInsensitive: $0)
        }
    }

    /// One entry line's URL, or why it names none.
    static func resolve(_ line: ArraySlice<UInt8>, base: URL?) -> Result<URL, StreamURLProblem> {
        StreamURL.resolve(TextBytes.decode(line), against: base)
    }
}

public enum StreamPlaylistError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No lines, or only comments and headers.
    case empty
    case html
    /// NUL bytes: audio or some other binary file, not a text playlist.
    case binary
    case tooLarge(Int)
    /// An HLS media playlist: its lines are segments of one stream, not streams.
    case hls
    /// Every entry was skipped; the first one's line and reason.
    case noStreams(firstProblem: StreamPlaylist.SkippedLine)

    public var description: String {
        switch self {
        case .empty: "the playlist is empty"
        case .html: "an HTML page, not a playlist"
        case .binary: "binary data, not a playlist"
        case .tooLarge(let size): "\(size) bytes is too large for a playlist"
        case .hls: "an HLS playlist (segments of one stream), which is not supported"
        case .noStreams(let problem): "no stream URL in the playlist (line \(problem.line): \(problem.reason))"
        }
    }
}
