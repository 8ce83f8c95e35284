import Foundation
import QPlayLibrary
import QPlayTestSupport
import SystemPackage
import Testing

/// Pictures read on request: embedded ones of each tag kind, the image beside a file,
/// the contract's order between them, and the bounds.
@Suite struct ArtworkTests {
    let directory = TemporaryDirectory("artwork")
    let png = GeneratedPictures.png(seed: 7)
    let jpeg = GeneratedPictures.jpegLike(count: 9000, seed: 8)

    @Test func mp3FrontCoverOrFirstPicture() throws {
        let mp3 = try GeneratedPictures.mp3(
            in: directory, name: "two.mp3",
            pictures: [
                .init(mime: "image/jpeg", type: 0, description: "other", data: jpeg),
                .init(mime: "image/png", type: 3, description: "front", data: png),
            ])
        let front = try #require(try EmbeddedPicture.read(mp3, choice: .frontCover))
        #expect(front.bytes == png)
        #expect(front.mime == "image/png")
        #expect(front.pictureType == 3)
        let first = try #require(try EmbeddedPicture.read(mp3, choice: .first))
        #expect(first.bytes == jpeg)
        #expect(first.mime == "image/jpeg")
        #expect(first.pictureType == 0)
    }

    @Test func mp3WithoutFrontCoverGivesItsFirstPicture() throws {
        let mp3 = try GeneratedPictures.mp3(
            in: directory, name: "back.mp3",
            pictures: [
                .init(mime: "-->", type: 3, data: Array("http://example.invalid/c.jpg".utf8)),
                .init(mime: "image/jpeg", type: 4, data: jpeg), .init(mime: "image/png", type: 5, data: png),
            ])
        // The link is no picture; of the others, the first.
        #expect(try EmbeddedPicture.read(mp3)?.bytes == jpeg)
    }

    @Test func flacPicture() throws {
        let flac = try GeneratedPictures.flac(in: directory, name: "p.flac", picture: png)
        let art = try #require(try EmbeddedPicture.read(flac))
        #expect(art.bytes == png)
        #expect(art.mime == "image/png")
        #expect(art.pictureType == 3)
    }

    @Test(arguments: [false, true])
    func oggMetadataBlockPicture(opus: Bool) throws {
        let ogg = try GeneratedPictures.ogg(in: directory, name: opus ? "p.opus" : "p.ogg", opus: opus, picture: png)
        let art = try #require(try EmbeddedPicture.read(ogg))
        #expect(art.bytes == png)
        #expect(art.mime == "image/png")
    }

    @Test func mp4Cover() throws {
        let m4a = try GeneratedPictures.m4a(in: directory, name: "p.m4a", picture: png)
        let art = try #require(try EmbeddedPicture.read(m4a))
        #expect(art.bytes == png)
        #expect(art.mime == "image/png")
        #expect(art.pictureType == nil)
    }

    @Test func noPictureIsNil() throws {
        let flac = try GeneratedPictures.flac(in: directory, name: "bare.flac", picture: nil)
        #expect(try EmbeddedPicture.read(flac) == nil)
        #expect(try ArtworkLookup().artwork(for: flac) == nil)
    }

    @Test func aPictureOverTheBoundIsRefused() throws {
        let flac = try GeneratedPictures.flac(in: directory, name: "big.flac", picture: png)
        #expect(throws: ArtworkError.tooLarge(size: png.count)) {
            try EmbeddedPicture.read(flac, maximumSize: png.count - 1)
        }
        #expect(try EmbeddedPicture.read(flac, maximumSize: png.count)?.bytes == png)
    }

    @Test func notAMusicFileIsInvalid() throws {
        // Named .flac, without FLAC's signature: no parser reads it.
        let text = directory.appending("notes.flac")
        try directory.write(Array(repeating: 0x41, count: 4096), to: text)
        #expect(throws: ArtworkError.self) { try EmbeddedPicture.read(text) }
    }

    @Test func folderImageInAnyCaseByNameOrder() throws {
        let album = directory.appending("Album")
        try FileManager.default.createDirectory(atPath: album.string, withIntermediateDirectories: true)
        let track = try GeneratedPictures.flac(in: directory, name: "Album/01.flac", picture: nil)
        #expect(FolderImage.find(beside: track) == nil)
        try directory.write(jpeg, to: album.appending("ALBUM.JPEG"))
        #expect(FolderImage.find(beside: track) == album.appending("ALBUM.JPEG"))
        try directory.write(png, to: album.appending("Front.webp"))
        #expect(FolderImage.find(beside: track) == album.appending("Front.webp"))
        try directory.write(png, to: album.appending("folder.PNG"))
        #expect(FolderImage.find(beside: track) == album.appending("folder.PNG"))
        try directory.write(jpeg, to: album.appending("Cover.jpg"))
        try directory.write(png, to: album.appending("cover.gif"))  // not a suffix looked for
        #expect(FolderImage.find(beside: track) == album.appending("Cover.jpg"))
        // A folder of that name is no image.
        try FileManager.default.createDirectory(
            atPath: album.appending("cover.jpeg").string, withIntermediateDirectories: true)
        #expect(FolderImage.find(beside: track) == album.appending("Cover.jpg"))

        let art = try #require(try ArtworkLookup().artwork(for: track))
        #expect(art.bytes == jpeg)
        #expect(art.mime == "image/jpeg")
        #expect(art.source == .file(album.appending("Cover.jpg")))
    }

    @Test func embeddedCoverComesBeforeTheFolderImage() throws {
        let album = directory.appending("Both")
        try FileManager.default.createDirectory(atPath: album.string, withIntermediateDirectories: true)
        try directory.write(jpeg, to: album.appending("cover.jpg"))
        let track = try GeneratedPictures.flac(in: directory, name: "Both/01.flac", picture: png)
        let art = try #require(try ArtworkLookup().artwork(for: track))
        #expect(art.bytes == png)
        #expect(art.source == .embedded)
    }

    @Test func keptPictureFollowsAChangedFile() throws {
        let lookup = ArtworkLookup()
        let flac = try GeneratedPictures.flac(in: directory, name: "changing.flac", picture: png)
        #expect(try lookup.embedded(flac, choice: .first)?.bytes == png)
        let other = GeneratedPictures.png(width: 8, height: 8, seed: 99)
        let replaced = try GeneratedPictures.flac(in: directory, name: "replacement.flac", picture: other)
        try FileManager.default.removeItem(atPath: flac.string)
        try FileManager.default.moveItem(atPath: replaced.string, toPath: flac.string)
        #expect(try lookup.embedded(flac, choice: .first)?.bytes == other)
    }
}
