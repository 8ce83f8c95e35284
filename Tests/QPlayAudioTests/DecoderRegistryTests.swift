import Foundation
import QPlayAudio
import QPlayModel
import QPlayTestSupport
import SystemPackage
import Testing

@Suite struct DecoderRegistryTests {
    /// Each row of the format table is bound to a decoder, and the refusals name them all.
    @Test func everyFormatOfTheTableHasADecoder() throws {
        #expect(DecoderRegistry.standard.formats == AudioFileFormat.allCases)
        #expect(DecoderRegistry.standard.fileExtensions == AudioFileFormat.allFileExtensions)
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let text = dir.appending("notes.ogg")
        try dir.write(Array("just text".utf8), to: text)
        let error = #expect(throws: DecoderError.self) { try DecoderRegistry.standard.open(text) }
        #expect(error?.reason == "not a file qplay plays (MP3, FLAC, Ogg Vorbis, Opus, AAC, ALAC, WAV, AIFF, WavPack): named .ogg, but no vorbis audio")
    }

    /// An MP3 cut so that it starts inside a frame: no format recognises its first bytes.
    private func headlessMP3(in dir: TemporaryDirectory, named name: String) throws -> FilePath {
        let sample = SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sample.path.string))
        let path = dir.appending(name)
        try dir.write(Array(bytes.dropFirst(bytes.count / 3 + 1)), to: path)
        return path
    }

    @Test func unrecognisedContentIsSearchedForMPEGAudioOnlyWhenItsNameAllows() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        for name in ["cut.mp3", "cut", "cut.bin"] {
            let path = try headlessMP3(in: dir, named: name)
            #expect(try DecoderRegistry.standard.formatName(of: path) == nil)
            let decoder = try DecoderRegistry.standard.open(path)
            #expect(try !decodeAll(decoder).isEmpty, "\(name): libmpg123 finds the frames after the cut")
        }
        for name in ["cut.flac", "cut.FLAC"] {
            let path = try headlessMP3(in: dir, named: name)
            let error = #expect(throws: DecoderError.self) { try DecoderRegistry.standard.open(path) }
            #expect(error?.reason.contains("named .flac, but no flac audio") == true, "\(String(describing: error))")
        }
    }
}
