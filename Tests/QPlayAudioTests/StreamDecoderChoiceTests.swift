import QPlayModel
import Testing

@testable import QPlayAudio

/// Which stream decoder a stream gets from its content type and first bytes
/// (`DecoderRegistry.streamRow`): the rules docs/arch/streams.md states, on heads built
/// as servers send them.
@Suite struct StreamDecoderChoiceTests {
    /// An Ogg page whose first packet begins with `magic` (the page header's fields that
    /// do not matter here are zero).
    static func oggPage(_ magic: String) -> [UInt8] {
        Array("OggS".utf8) + [UInt8](repeating: 0, count: 22) + [1, 30] + Array(magic.utf8)
            + [UInt8](repeating: 0, count: 64 - 28 - magic.utf8.count)
    }

    static let adts: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x2E, 0x7F, 0xFC] + [UInt8](repeating: 0x21, count: 57)
    static let mpegFrame: [UInt8] = [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 60)
    static let junk = [UInt8](repeating: 0x55, count: 64)

    func chosen(_ type: String, _ head: [UInt8]) -> String {
        switch DecoderRegistry.streamRow(contentType: type, head: head) {
        case .success(let row): row.format.rawValue
        case .failure(let refusal): refusal.reason
        }
    }

    @Test func anOggStreamIsTakenByTheCodecItsFirstPageNamesWhateverItsType() {
        for type in ["application/ogg", "audio/ogg", "audio/mpeg", "", "application/octet-stream"] {
            #expect(chosen(type, Self.oggPage("\u{01}vorbis")) == "vorbis", "\(type)")
            #expect(chosen(type, Self.oggPage("OpusHead")) == "opus", "\(type)")
        }
        #expect(
            chosen("application/ogg", Self.oggPage("\u{7F}FLAC"))
                == "an Ogg stream of a codec qplay does not play (MP3, Ogg Vorbis, Opus and AAC streams are played)")
    }

    @Test func otherwiseTheContentTypeDecides() {
        #expect(chosen("audio/mpeg", Self.junk) == "mp3")
        #expect(chosen("audio/aacp", Self.junk) == "aac")
        #expect(chosen("audio/aac", Self.mpegFrame) == "aac")
        #expect(chosen("audio/opus", Self.junk) == "opus")
        #expect(chosen("audio/ogg", Self.junk) == "a stream of audio/ogg that does not start with an Ogg page")
        #expect(chosen("audio/flac", Self.junk) == "a stream of audio/flac is not played (MP3, Ogg Vorbis, Opus and AAC streams are)")
    }

    @Test func aStreamWithoutATypeIsRecognisedByItsHeadElseTakenForMP3() {
        for type in ["", "application/octet-stream"] {
            #expect(chosen(type, Self.adts) == "aac", "\(type)")
            #expect(chosen(type, Self.mpegFrame) == "mp3", "\(type)")
            #expect(chosen(type, Self.junk) == "mp3", "\(type)")
            #expect(chosen(type, []) == "mp3", "\(type)")
        }
    }
}
