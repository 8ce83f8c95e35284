import Foundation
import QPlayProtocol
import Testing

/// `art` pieces: base64 as Foundation writes it, at most 1 MiB a piece, decoded back.
@Suite struct ArtChunkTests {
    @Test(arguments: 0..<12)
    func base64MatchesFoundationAndDecodes(_ count: Int) throws {
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 37 + 250) }
        let chunk = ArtChunk(mime: "image/png", picture: bytes, offset: 0)
        #expect(chunk.data == Data(bytes).base64EncodedString())
        #expect(chunk.bytes == bytes)
        #expect(chunk.size == count)
    }

    @Test func aPieceIsAtMostOneMiBFromItsOffset() {
        let picture = (0..<(ArtChunk.maximumChunk + 1000)).map { UInt8(truncatingIfNeeded: $0) }
        let first = ArtChunk(mime: nil, picture: picture, offset: 0)
        #expect(first.bytes?.count == ArtChunk.maximumChunk)
        let rest = ArtChunk(mime: nil, picture: picture, offset: ArtChunk.maximumChunk)
        #expect(rest.bytes.map { Array(picture[ArtChunk.maximumChunk...]) == $0 } == true)
        #expect(ArtChunk(mime: nil, picture: picture, offset: picture.count).data == "")
    }

    @Test func textThatIsNotBase64HasNoBytes() {
        #expect(ArtChunk(mime: nil, size: 3, offset: 0, data: "ab$=").bytes == nil)
        #expect(ArtChunk(mime: nil, size: 3, offset: 0, data: "abc").bytes == nil)
        #expect(ArtChunk(mime: nil, size: 3, offset: 0, data: "a===").bytes == nil)
    }
}
