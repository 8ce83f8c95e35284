import FoundationEssentials

extension StreamPlaylist {
    /// M3U: one URL a line; `#EXTINF:LENGTH [attributes],TITLE` titles the next URL;
    /// other `#` lines are comments (`#EXTM3U`, `#PLAYLIST`, `#EXTGRP` …).
    static func parseM3U(_ lines: [ArraySlice<UInt8>], base: URL?) throws(StreamPlaylistError) -> StreamPlaylist {
        var playlist = StreamPlaylist(format: .m3u, entries: [], skipped: [])
        var title: String?
        for (offset, line) in lines.enumerated() where !line.isEmpty {
            if line.first == UInt8(ascii: "#") {
                if TextBytes.hasPrefix(line, caseInsensitive: "#EXT-X-") { throw .hls }
                if TextBytes.hasPrefix(line, caseInsensitive: "#EXTINF:") { title = extinfTitle(line.dropFirst(8)) }
                continue
            }
            switch resolve(line, base: base) {
            case .success(let url): playlist.entries.append(Entry(url: url, title: title))
            case .failure(let problem): playlist.skipped.append(SkippedLine(line: offset + 1, reason: problem.description))
            }
            title = nil
        }
        return playlist
    }

    /// The title after `#EXTINF:`'s first comma outside double quotes (IPTV-style
    /// attributes such as `tvg-name="a,b"` come before it); nil when there is none.
    static func extinfTitle(_ rest: ArraySlice<UInt8>) -> String? {
        var quoted = false
        for index in rest.indices {
            switch rest[index] {
            case UInt8(ascii: "\""): quoted.toggle()
            case UInt8(ascii: ","):
                guard !quoted else { continue }
                let title = TextBytes.trimmed(rest[(index + 1)...])
                return title.isEmpty ? nil : TextBytes.decode(title)
            default: continue
            }
        }
        return nil
    }
}
