import QPlayAudio
import QPlayModel
import QPlayTestSupport
import Testing

/// Audiobook chapters of MP4 files, as FFmpeg's demuxer reads them while opening: from a
/// QuickTime chapter track (iTunes's way) or a Nero `chpl` box alone, in ALAC and AAC;
/// the chapter track never disturbs the audio.
@Suite struct FFmpegChapterTests {
    static let chapters: [(title: String, start: Double)] = [("Prologue", 0), ("Der Weg – zwei", 1.5), ("Three", 3.25)]
    static let frames = 4 * 44100 + 777

    static let cases: [(GeneratedAudio.ChapterLayout, FFmpegKind)] = GeneratedAudio.ChapterLayout.allCases.flatMap {
        layout in [FFmpegKind.alac, .aac].map { (layout, $0) }
    }

    @Test(arguments: cases)
    func chaptersAreReadWithTitlesAndStarts(layout: GeneratedAudio.ChapterLayout, kind: FFmpegKind) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: Double(Self.frames) / 44100, synth: ["sine", "523"])
        let plain = try GeneratedAudio.encode(pcm, as: kind, to: "plain.m4a", in: dir)
        let book = try GeneratedAudio.addChapters(
            Self.chapters, length: Double(Self.frames) / 44100, to: plain, as: "book.m4b", layout: layout, in: dir)
        #expect(try DecoderRegistry.standard.open(plain).chapters == [], "a file without chapters has none")

        let decoder = try DecoderRegistry.standard.open(book)
        #expect(decoder.chapters.map(\.title) == Self.chapters.map(\.title))
        for (read, made) in zip(decoder.chapters, Self.chapters) {
            #expect(abs(read.start - made.start) < 0.0015, "\(read.title) starts at \(read.start), made at \(made.start)")
        }
        // The chapter track is a second stream: the audio is the plain file's, exactly.
        #expect(decoder.frameCount == Self.frames)
        #expect(try decodeAll(decoder) == decodeAll(try DecoderRegistry.standard.open(plain)))
    }
}
