import FoundationEssentials
import QPlayFuzzSupport
import QPlayStreams

/// Parses a playlist body (m3u or pls, whichever the content is) fetched from a fixed
/// URL. Nothing may crash; every entry is an http/https URL with a host; skipped lines
/// are real line numbers in order; every error has a message; and the entries written
/// back as an extended M3U parse to the same URLs and titles.
///
/// Input: the body.
@main
enum StreamPlaylistFuzz {
    static let base = URL(string: "http://radio.example:8000/lists/station.pls")!

    static func main() { FuzzDriver.run(check) }

    static func check(_ bytes: [UInt8]) {
        let playlist: StreamPlaylist
        do {
            playlist = try StreamPlaylist.parse(bytes, base: base)
        } catch {
            fuzzCheck(!error.description.isEmpty, "an error without a message")
            return
        }
        fuzzCheck(!playlist.entries.isEmpty, "a playlist without entries")
        // Every line ending counts: "\r\n" once, a lone "\r" or "\n" once each.
        let lineCount = bytes.count + 1
        var previous = 0
        for skipped in playlist.skipped {
            fuzzCheck(skipped.line >= previous && skipped.line >= 1 && skipped.line <= lineCount,
                "skipped line \(skipped.line) after \(previous)")
            fuzzCheck(!skipped.reason.isEmpty, "a skipped line without a reason")
            previous = skipped.line
        }
        for entry in playlist.entries {
            let scheme = entry.url.scheme?.lowercased()
            fuzzCheck(scheme == "http" || scheme == "https", "entry \(entry.url)")
            fuzzCheck(entry.url.host()?.isEmpty == false, "entry without a host: \(entry.url)")
            if let title = entry.title {
                fuzzCheck(!title.isEmpty && !title.contains("\n") && !title.contains("\r"), "title \(title)")
            }
        }

        var written = "#EXTM3U\n"
        for entry in playlist.entries {
            if let title = entry.title { written += "#EXTINF:-1,\(title)\n" }
            written += entry.url.absoluteString + "\n"
        }
        let again = Result { () throws(StreamPlaylistError) in try StreamPlaylist.parse(Array(written.utf8), base: nil) }
        guard case .success(let reread) = again else {
            fuzzCheck(false, "the entries written back do not parse: \(again)\n\(written)")
            return
        }
        fuzzCheck(reread.entries == playlist.entries, "written back \(written) parses as \(reread.entries)")
    }
}
