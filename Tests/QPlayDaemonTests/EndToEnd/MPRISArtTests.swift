import Foundation
import QPlayTestSupport
import SystemPackage
import Testing

/// MPRIS `mpris:artUrl` for an embedded picture: written once to the art cache under
/// `$XDG_CACHE_HOME/qplay/art/`, the URL pointing at a file holding exactly its bytes;
/// for a track without one, the image beside it.
@Suite(.serialized, .timeLimit(.minutes(3)), .tags(.peer), .group(.peer))
struct MPRISArtTests {
    @Test func artUrlPointsAtTheEmbeddedPictureWrittenOnce() throws {
        let png = GeneratedPictures.png(width: 48, height: 48, seed: 31)
        let music = TemporaryDirectory("qplay-mpris-art")
        defer { music.remove() }
        for folder in ["Embedded", "Beside"] {
            try FileManager.default.createDirectory(
                atPath: music.appending(folder).string, withIntermediateDirectories: true)
        }
        _ = try GeneratedPictures.mp3(
            in: music, name: "Embedded/01.mp3", pictures: [.init(mime: "image/png", type: 3, data: png)], seconds: 30)
        _ = try GeneratedPictures.mp3(in: music, name: "Beside/02.mp3", pictures: [], seconds: 30)
        try music.write(Array("beside".utf8), to: music.appending("Beside/Front.PNG"))

        let bus = SessionBus()
        try bus.start()
        defer { bus.kill() }
        let daemon = try MPRISTests.daemon(on: bus, music: music)
        defer {
            daemon.stop()
            daemon.directory.remove()
        }
        let ctl = Playerctl(bus: bus)
        try daemon.qplayOK("add", "--where", "path=Embedded/01.mp3")
        try daemon.qplayOK("add", "--where", "path=Beside/02.mp3")
        try waitUntil("qplay plays on the bus") { try ctl.run("-p", "qplay", "status") == "Playing" }

        let cache = daemon.directory.appending("xdg-cache/qplay/art").string
        let url = try ctl.run("-p", "qplay", "metadata", "mpris:artUrl")
        #expect(url.hasPrefix("file://" + cache + "/"), "\(url)")
        let path = try #require(String(url.dropFirst("file://".count)).removingPercentEncoding)
        #expect(try TemporaryDirectory.read(FilePath(path)) == png)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache).count == 1)

        try daemon.qplayOK("next")
        try waitUntil("the second track's picture") {
            try ctl.run("-p", "qplay", "metadata", "mpris:artUrl").hasSuffix("/Front.PNG")
        }
        #expect(
            try ctl.run("-p", "qplay", "metadata", "mpris:artUrl") == "file://" + music.appending("Beside/Front.PNG").string)
        // Back to the first: the same file, not a second copy.
        try daemon.qplayOK("prev")
        try waitUntil("the first track's picture again") { try ctl.run("-p", "qplay", "metadata", "mpris:artUrl") == url }
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache).count == 1)
    }
}
