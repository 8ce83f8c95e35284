import FoundationEssentials
import QPlayStreams
import Testing

@Suite struct StreamPlaylistTests {
    static let base = URL(string: "http://radio.example:8000/lists/station.m3u?listen=1")!

    func parse(_ text: String, base: URL? = Self.base) throws(StreamPlaylistError) -> StreamPlaylist {
        try StreamPlaylist.parse(Array(text.utf8), base: base)
    }

    func urls(_ playlist: StreamPlaylist) -> [String] { playlist.entries.map(\.url.absoluteString) }

    func error(_ body: [UInt8], base: URL? = Self.base) -> StreamPlaylistError? {
        do {
            _ = try StreamPlaylist.parse(body, base: base)
            return nil
        } catch {
            return error
        }
    }

    @Test func extendedM3UGivesURLsAndTitles() throws {
        let playlist = try parse(
            """
            #EXTM3U
            #EXTINF:-1,Radio One - Main
            http://one.example/main.mp3
            #EXTINF:-1 tvg-name="One, backup" tvg-logo="x.png",Radio One, backup
            https://one.example:8443/backup

            http://one.example/untitled.ogg
            """)
        #expect(playlist.format == .m3u)
        #expect(urls(playlist) == ["http://one.example/main.mp3", "https://one.example:8443/backup",
            "http://one.example/untitled.ogg"])
        #expect(playlist.entries.map(\.title) == ["Radio One - Main", "Radio One, backup", nil])
        #expect(playlist.skipped.isEmpty)
    }

    @Test func plainM3UWithCRLFAndBOM() throws {
        let body = [0xEF, 0xBB, 0xBF] + Array("http://a.example/1\r\n  http://b.example/2  \r\rhttp://c.example/3".utf8)
        let playlist = try StreamPlaylist.parse(body, base: nil)
        #expect(urls(playlist) == ["http://a.example/1", "http://b.example/2", "http://c.example/3"])
        #expect(playlist.entries.allSatisfy { $0.title == nil })
    }

    @Test func relativeEntriesResolveAgainstThePlaylistURL() throws {
        let playlist = try parse("live.mp3\n/root.aac\n../up.ogg\n//mirror.example/x\n?format=opus\nspaced name.mp3\n")
        #expect(urls(playlist) == [
            "http://radio.example:8000/lists/live.mp3", "http://radio.example:8000/root.aac",
            "http://radio.example:8000/up.ogg", "http://mirror.example/x",
            "http://radio.example:8000/lists/station.m3u?format=opus",
            "http://radio.example:8000/lists/spaced%20name.mp3",
        ])
    }

    @Test func relativeEntriesWithoutABaseAreSkipped() throws {
        let playlist = try parse("live.mp3\nhttp://ok.example/live\n", base: nil)
        #expect(urls(playlist) == ["http://ok.example/live"])
        #expect(playlist.skipped.map(\.line) == [1])
    }

    @Test func otherSchemesAreSkippedWithTheirLines() throws {
        let playlist = try parse(
            """
            #EXTM3U
            rtsp://media.example/live
            http://good.example/live
            file:///etc/passwd
            C:\\Music\\song.mp3
            http://:8000/nohost
            http://bad.example:99999/
            """)
        #expect(urls(playlist) == ["http://good.example/live"])
        #expect(playlist.skipped.map(\.line) == [2, 4, 5, 6, 7])
        #expect(playlist.skipped[0].reason == "rtsp: is not a stream URL (only http and https are)")
        #expect(playlist.skipped[1].reason.hasPrefix("file:"))
        #expect(playlist.skipped[3].reason == "the URL names no host")
        #expect(playlist.skipped[4].reason == "port 99999 is out of range")
    }

    @Test func anEXTINFTitlesOnlyTheNextEntry() throws {
        let playlist = try parse("#EXTINF:10,First\n#EXTINF:20,Second\nhttp://a.example/1\nhttp://a.example/2\n")
        #expect(playlist.entries.map(\.title) == ["Second", nil])
    }

    @Test func plsEntriesInTheOrderOfTheirNumbers() throws {
        let playlist = try parse(
            """
            [playlist]
            NumberOfEntries=7
            File2=http://two.example/live
            Title2=Two
            file1=http://one.example/live
            TITLE1=Ünïcode One
            Length1=-1
            ; a comment
            File10=relative.mp3
            Version=2
            """)
        #expect(playlist.format == .pls)
        #expect(urls(playlist) == ["http://one.example/live", "http://two.example/live",
            "http://radio.example:8000/lists/relative.mp3"])
        #expect(playlist.entries.map(\.title) == ["Ünïcode One", "Two", nil])
    }

    @Test func plsBadLinesAreSkippedWithReasons() throws {
        let playlist = try parse(
            "[Playlist]\nFile1=http://a.example/\nthis is not a key\nFile=http://b.example/\nFile1=http://c.example/\n"
                + "Filex=http://d.example/\nFile2=mms://e.example/\n")
        #expect(urls(playlist) == ["http://a.example/"])
        #expect(playlist.skipped.map(\.line) == [3, 4, 5, 6, 7])
        #expect(playlist.skipped.map(\.reason) == [
            "not a KEY=VALUE line", "a File key without an entry number", "File1 given twice (line 2 is kept)",
            "a File key without an entry number", "mms: is not a stream URL (only http and https are)",
        ])
    }

    @Test func latin1TitlesWhenNotUTF8() throws {
        let body = Array("#EXTINF:-1,Caf".utf8) + [0xE9] + Array(" del Mar\nhttp://a.example/\n".utf8)
        #expect(try StreamPlaylist.parse(body, base: nil).entries.first?.title == "Café del Mar")
    }

    @Test func emptyBodiesAreErrors() {
        #expect(error([]) == .empty)
        #expect(error(Array("\n  \r\n\t\n".utf8)) == .empty)
        #expect(error(Array("#EXTM3U\n#EXTINF:-1,Nothing after\n".utf8)) == .empty)
        #expect(error(Array("[playlist]\nNumberOfEntries=0\nVersion=2\n".utf8)) == .empty)
        #expect(StreamPlaylistError.empty.description == "the playlist is empty")
    }

    @Test func anHTMLPageIsNotAPlaylist() {
        for page in ["<!DOCTYPE html>\n<html><body>Listen</body></html>", "\n\n  <html lang=\"en\">", "<HEAD>"] {
            #expect(error(Array(page.utf8)) == .html, "\(page)")
        }
        #expect(StreamPlaylistError.html.description == "an HTML page, not a playlist")
    }

    @Test func audioAndOtherBinaryIsNotAPlaylist() {
        #expect(error([0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x21]) == .binary)
        #expect(error(Array("OggS".utf8) + [0, 2, 0, 0]) == .binary)
    }

    @Test func hlsIsRefused() {
        let media = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nseg1.aac\n"
        #expect(error(Array(media.utf8)) == .hls)
        #expect(error(Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=128000\nlow/index.m3u8\n".utf8)) == .hls)
    }

    @Test func aPlaylistWithNoUsableStreamSaysWhy() {
        let problem = error(Array("#EXTM3U\nmms://old.example/live\nrtsp://x/y\n".utf8))
        #expect(problem == .noStreams(firstProblem: .init(line: 2, reason: "mms: is not a stream URL (only http and https are)")))
        #expect(problem?.description == "no stream URL in the playlist (line 2: mms: is not a stream URL (only http and https are))")
    }

    @Test func oversizedBodiesAreRefusedBeforeParsing() {
        let body = [UInt8](repeating: 0x61, count: StreamPlaylist.maximumBytes + 1)
        #expect(error(body) == .tooLarge(StreamPlaylist.maximumBytes + 1))
    }
}
