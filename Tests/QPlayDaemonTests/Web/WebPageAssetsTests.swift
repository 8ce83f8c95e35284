import Foundation
import QPlayTestSupport
import Testing

@testable import QPlayDaemon

/// The page compiled into qplayd is the page in Sources/QPlayDaemon/Web/Assets: the
/// committed WebAssets.swift is what scripts/gen-web-assets writes now, and what it
/// holds decodes to the asset files' bytes.
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
        #expect(Set(names.map { $0 == "index.html" ? "/" : "/" + $0 }) == Set(WebAssets.files.keys))
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.assets.appending(name).string)))
            let asset = try #require(WebAssets.files[name == "index.html" ? "/" : "/" + name])
            #expect(asset.body == bytes, "\(name)")
            #expect(try gunzip(asset.gzipped) == bytes, "\(name)")
            #expect(asset.etag.hasPrefix("\"") && asset.etag.hasSuffix("\"") && asset.etag.count > 10)
        }
        #expect(WebAssets.files["/"]?.contentType == "text/html; charset=utf-8")
        #expect(WebAssets.files["/app.js"]?.contentType == "text/javascript; charset=utf-8")
        #expect(WebAssets.files["/app.css"]?.contentType == "text/css; charset=utf-8")
        #expect(WebAssets.files["/login.html"] != nil)
        let etags = WebAssets.files.values.map(\.etag)
        #expect(Set(etags).count == etags.count)
    }

    /// The whole page (HTML, CSS, JS, icons) is at most 100 KB uncompressed.
    @Test func pageWeighsAtMost100KB() {
        let total = WebAssets.files.filter { $0.key != "/login.html" }.values.reduce(0) { $0 + $1.body.count }
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
