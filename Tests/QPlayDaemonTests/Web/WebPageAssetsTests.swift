import Foundation
import QPlayTestSupport
import Testing

@testable import QPlayDaemon
import QPlayProtocol

/// The page compiled into qplayd is the page in Sources/QPlayDaemon/Web/Assets: the
/// committed WebAssets.swift is what scripts/gen-web-assets writes now, and what it
/// holds decodes to the asset files' bytes; index.html, filled in, is index.html with
/// app.css in it and the slots' text in their places, and gzip(1) reads its gzip back.
@Suite struct WebPageAssetsTests {
    static let assets = SampleCatalog.repositoryRoot.appending("Sources/QPlayDaemon/Web/Assets")

    @Test func committedFileMatchesTheGenerator() throws {
        let script = SampleCatalog.repositoryRoot.appending("scripts/gen-web-assets")
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), [script.string, "--check"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func everyAssetIsServedWithItsBytes() throws {
        let names = try FileManager.default.subpathsOfDirectory(atPath: Self.assets.string)
            .filter { !$0.hasPrefix(".") && !isDirectory(Self.assets.appending($0).string) }
        let files = names.filter { $0 != "index.html" }
        #expect(Set(files.map { "/" + $0 }) == Set(WebAssets.files.keys))
        for name in files {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.assets.appending(name).string)))
            let asset = try #require(WebAssets.files["/" + name])
            #expect(asset.body == bytes, "\(name)")
            #expect(try gunzip(asset.gzipped) == bytes, "\(name)")
            #expect(asset.etag.hasPrefix("\"") && asset.etag.hasSuffix("\"") && asset.etag.count > 10)
        }
        #expect(WebAssets.files["/app.js"]?.contentType == "text/javascript; charset=utf-8")
        #expect(WebAssets.files["/app.css"]?.contentType == "text/css; charset=utf-8")
        #expect(WebAssets.files["/login.html"] != nil)
        let etags = WebAssets.files.values.map(\.etag)
        #expect(Set(etags).count == etags.count)
    }

    @Test func thePageIsIndexHTMLWithItsStyleAndTheSlotsFilledIn() throws {
        let read = { (name: String) in try String(contentsOfFile: Self.assets.appending(name).string, encoding: .utf8) }
        let css = try read("app.css")
        var expected = try read("index.html")
            .replacingOccurrences(of: #"<link rel="stylesheet" href="/app.css">"#, with: "<style>\n\(css)</style>")
        var values: [WebPageTemplate.Slot: String] = [:]
        for slot in WebAssets.page.slots {
            // Longer than a stored block holds, in one slot: two blocks.
            let text = slot == .title ? String(repeating: "é", count: 40_000) : "<\(slot.rawValue)>"
            values[slot] = text
            expected = expected.replacingOccurrences(of: "{{\(slot.rawValue)}}", with: text)
        }
        #expect(expected.range(of: #"\{\{[a-z-]+\}\}"#, options: .regularExpression) == nil, "every slot filled")
        let page = WebAssets.page.fill(values)
        #expect(String(decoding: page.body, as: UTF8.self) == expected)
        #expect(try gunzip(page.gzipped) == page.body)
        let short = WebAssets.page.fill([:])
        #expect(try gunzip(short.gzipped) == short.body)
        #expect(short.gzipped.count * 2 < short.body.count, "the pieces stay compressed")
        #expect(short.etag != page.etag && short.etag.hasPrefix("\"") && short.etag.hasSuffix("\""))
    }

    @Test func nowPlayingIsEscaped() {
        let track = QPlayProtocol.Track(id: 7, path: "a.mp3", title: #"<img src=x onerror="a()"> & 'b'"#, artist: "A</p>", album: "")
        let slots = WebNowPlaying.slots(QPlayProtocol.Status(state: .playing, track: track, output: OutputStatus(name: "null")))
        #expect(slots[.title] == "&lt;img src=x onerror=&quot;a()&quot;&gt; &amp; &#39;b&#39;")
        #expect(slots[.subtitle] == "A&lt;/p&gt;")
        #expect(slots[.toggleLabel] == "Pause" && slots[.toggleIcon] == WebNowPlaying.pauseIcon)
        let idle = WebNowPlaying.slots(nil)
        #expect(idle[.title] == "Nothing playing" && idle[.subtitle] == "" && idle[.documentTitle] == "qplay")
        #expect(idle[.toggleLabel] == "Play" && idle[.toggleIcon] == WebNowPlaying.playIcon)
    }

    /// The whole page (HTML, CSS, JS, icons) is at most 100 KB uncompressed.
    @Test func pageWeighsAtMost100KB() {
        let total = WebAssets.files.filter { $0.key != "/login.html" }.values.reduce(WebAssets.page.fill([:]).body.count) {
            $0 + $1.body.count
        }
        #expect(total <= 100_000, "the page weighs \(total) bytes")
    }

    private func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    /// gzip(1) reads it back (the bytes are text, which runProcess hands over as a String).
    private func gunzip(_ packed: [UInt8]) throws -> [UInt8] {
        let result = try runProcess(URL(fileURLWithPath: "/bin/gzip"), ["-dc"], stdin: Data(packed))
        #expect(result.status == 0, "\(result.stderr)")
        return Array(result.stdout.utf8)
    }
}
