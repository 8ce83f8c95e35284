import Foundation
import QPlayTestSupport
import SystemPackage
import Testing

/// JSON `art` and `qplay art` on a real daemon: the bytes round-trip in pieces, the
/// contract's order (embedded front cover, else the image beside the file), `not_found`
/// without a picture, and tracks' `art` flag once known.
@Suite struct ArtCommandTests {
    let png = GeneratedPictures.png(width: 64, height: 64, seed: 21)
    let folderImage = GeneratedPictures.jpegLike(count: 5000, seed: 22)

    func music() throws -> TemporaryDirectory {
        let music = TemporaryDirectory("art-music")
        for folder in ["Embedded", "Folder", "Bare"] {
            try FileManager.default.createDirectory(
                atPath: music.appending(folder).string, withIntermediateDirectories: true)
        }
        _ = try GeneratedPictures.mp3(
            in: music, name: "Embedded/01.mp3",
            pictures: [
                .init(mime: "image/jpeg", type: 4, data: folderImage), .init(mime: "image/png", type: 3, data: png),
            ])
        try music.write(folderImage, to: music.appending("Embedded/cover.jpg"))
        _ = try GeneratedPictures.flac(in: music, name: "Folder/02.flac", picture: nil)
        try music.write(folderImage, to: music.appending("Folder/Folder.JPG"))
        _ = try GeneratedPictures.flac(in: music, name: "Bare/03.flac", picture: nil)
        return music
    }

    func trackID(_ client: LineSocketClient, _ path: String) throws -> Int {
        let response = try client.request("search", ["where": [["property": "path", "op": "equals", "value": path]]])
        let tracks = try #require((response["result"] as? [String: Any])?["tracks"] as? [[String: Any]])
        return try #require(tracks.first?["id"] as? Int)
    }

    func artFlag(_ client: LineSocketClient, _ path: String) throws -> Any? {
        let response = try client.request("search", ["where": [["property": "path", "op": "equals", "value": path]]])
        let tracks = try #require((response["result"] as? [String: Any])?["tracks"] as? [[String: Any]])
        return try #require(tracks.first)["art"]
    }

    @Test func artRoundTripsInPiecesAndTracksLearnTheirFlag() throws {
        let music = try music()
        defer { music.remove() }
        try withDaemon(music: music.path.string) { daemon in
            let client = try daemon.client()
            let embedded = try trackID(client, "Embedded/01.mp3")
            #expect(try artFlag(client, "Embedded/01.mp3") is NSNull)

            // Pieces from offsets: the bytes and the front cover (not the first picture).
            var collected: [UInt8] = []
            for offset in [0, 5000] {
                let response = try client.request("art", ["track": embedded, "offset": offset])
                let result = try #require(response["result"] as? [String: Any], "\(response)")
                #expect(result["mime"] as? String == "image/png")
                #expect(result["size"] as? Int == png.count)
                #expect(result["offset"] as? Int == offset)
                let text = try #require(result["data"] as? String)
                let data = try #require(Data(base64Encoded: text))
                if offset == 0 { collected = Array(data.prefix(5000)) } else { collected += data }
            }
            #expect(collected == png)
            #expect(try artFlag(client, "Embedded/01.mp3") as? Bool == true)

            // Past the end: bad_request; at the end: an empty piece.
            let past = try client.request("art", ["track": embedded, "offset": png.count + 1])
            #expect((past["error"] as? [String: Any])?["code"] as? String == "bad_request")
            let end = try client.request("art", ["track": embedded, "offset": png.count])
            #expect((end["result"] as? [String: Any])?["data"] as? String == "")

            // The image beside the file, any case.
            let folder = try trackID(client, "Folder/02.flac")
            let image = try client.request("art", ["track": folder])
            let result = try #require(image["result"] as? [String: Any], "\(image)")
            #expect(result["mime"] as? String == "image/jpeg")
            #expect(Data(base64Encoded: result["data"] as? String ?? "").map(Array.init) == folderImage)

            // None: not_found, and the flag says so.
            let bare = try trackID(client, "Bare/03.flac")
            let none = try client.request("art", ["track": bare])
            #expect((none["error"] as? [String: Any])?["code"] as? String == "not_found")
            #expect(try artFlag(client, "Bare/03.flac") as? Bool == false)

            // Nothing playing and no track named.
            let idle = try client.request("art")
            #expect((idle["error"] as? [String: Any])?["code"] as? String == "not_found")

            // qplay art: the playing track's picture to a file, another's by --track.
            try daemon.qplay("add", "--where", "path=Embedded/01.mp3")
            let out = daemon.directory.appending("cover.out").string
            let written = try daemon.qplay("art", "--out", out)
            #expect(written.status == 0, "\(written.stderr)")
            #expect(try TemporaryDirectory.read(FilePath(out)) == png)
            let other = daemon.directory.appending("other.out").string
            let named = try daemon.qplay("art", "--track", "\(folder)", "--out", other)
            #expect(named.status == 0, "\(named.stderr)")
            #expect(try TemporaryDirectory.read(FilePath(other)) == folderImage)
            // stdout a terminal (script(1) gives it one): refused, nothing written.
            let terminal = try runProcess(
                URL(fileURLWithPath: "/usr/bin/script"),
                ["-qec", "\(BuiltProducts.url("qplay").path) art --track \(folder)", "/dev/null"],
                environment: daemon.environment, killAfter: 30)
            #expect(terminal.status == 2, "\(terminal)")
            #expect(terminal.stdout.contains("refusing to write binary image data to a terminal"), "\(terminal)")
            #expect(!terminal.stdout.contains("JFIF") && terminal.stdout.utf8.count < 1000)
            let missing = try daemon.qplay("art", "--track", "\(bare)", "--out", out)
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("no picture"))
        }
    }
}
