import QPlayLibrary
import QPlayModel
import QPlayTestSupport
import SystemPackage
import Testing

/// The format table (QPlayModel's `AudioFormatTable.swift`): its rows do not overlap,
/// and each row's signature recognises its format's files whatever their names.
@Suite struct AudioFormatTableTests {
    /// One sample file of each format: MP3 from the main table of Samples/README.md, the
    /// others from the formats table.
    /// FFmpeg's formats have no sample in the folder: one is made in `directory`.
    private static func sample(of format: AudioFileFormat, in directory: TemporaryDirectory) throws -> FilePath? {
        if format == .mp3 { return SampleCatalog.named("untagged.mp3").path }
        if let kind = GeneratedAudio.FFmpegKind.allCases.first(where: { $0.wireName == format.rawValue }) {
            let pcm = try GeneratedAudio.pcm(in: directory, seconds: 0.5, synth: ["sine", "440"])
            return try GeneratedAudio.encode(pcm, as: kind, to: "sample.\(kind.fileExtension)", in: directory)
        }
        return SampleCatalog.formats.first { $0.format == format.rawValue }?.path
    }

    @Test func namesExtensionsAndTheSearchedFormatAreUnique() {
        let rows = AudioFileFormat.allCases.map(\.row)
        #expect(Set(rows.map(\.wireName)).count == rows.count)
        #expect(Set(rows.map(\.displayName)).count == rows.count)
        // One MPD decoder may play several rows (FFmpeg's), listed together.
        let decoders = rows.map(\.mpdDecoder)
        for (index, decoder) in decoders.enumerated() where index > 0 && decoders[index - 1] != decoder {
            #expect(!decoders[..<index].contains(decoder), "\(decoder)'s rows are not together")
        }
        let extensions = rows.flatMap(\.fileExtensions)
        #expect(Set(extensions).count == extensions.count, "an extension claims two formats: \(extensions)")
        #expect(extensions.allSatisfy { $0 == $0.lowercased() && !$0.hasPrefix(".") })
        #expect(rows.filter(\.searchedWhenUnrecognised).count == 1)
        // MPRIS's SupportedMimeTypes is every row's MIME types: each row names its own.
        #expect(rows.allSatisfy { !$0.mimeTypes.isEmpty }, "a row without MIME types")
        let mimeTypes = rows.flatMap(\.mimeTypes)
        #expect(Set(mimeTypes).count == mimeTypes.count, "a MIME type claims two formats: \(mimeTypes)")
        #expect(mimeTypes.allSatisfy { $0.hasPrefix("audio/") && $0 == $0.lowercased() })
        #expect(AudioFileFormat.allMimeTypes == mimeTypes)
        for format in AudioFileFormat.allCases {
            #expect(AudioFileFormat(rawValue: format.rawValue) == format)
        }
        #expect(AudioFileFormat(rawValue: "wma") == nil)
    }

    /// Each format's sample, copied under every other format's extension, is read as its
    /// own format with its own length; its first bytes match its row's signature only.
    @Test(arguments: AudioFileFormat.allCases)
    func everyFormatIsRecognisedByContent(format: AudioFileFormat) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let sample = try #require(try Self.sample(of: format, in: dir), "no sample of \(format)")
        let own = try TagReader.read(sample)
        #expect(own.format == format)
        #expect(own.durationMilliseconds > 0 && own.sampleRate > 0)
        for other in AudioFileFormat.allCases where other != format {
            for ext in other.row.fileExtensions {
                let disguised = dir.appending("sample.\(ext)")
                try dir.copy(sample, to: disguised)
                let tags = try TagReader.read(disguised)
                #expect(tags.format == format, "\(format) named .\(ext)")
                #expect(tags.durationMilliseconds == own.durationMilliseconds, "\(format) named .\(ext)")
                #expect(tags.exactSamples == own.exactSamples, "\(format) named .\(ext)")
            }
        }
        let bytes = try TemporaryDirectory.read(sample)
        let content = Array(bytes.dropFirst(Self.leadingTagSize(bytes)))
        let head = Array(content.prefix(AudioFileFormat.headLength))
        let file: ContentReader = { offset, count in Array(content.dropFirst(offset).prefix(count)) }
        let matching = AudioFileFormat.allCases.filter { $0.row.signature.matches(head, file: file) }
        #expect(matching == [format])
        #expect(AudioFileFormat.choose(head: head, file: file, fileExtension: "txt") == .recognised(format))
    }

    /// A name only matters when the content matches no signature: a name claiming a
    /// format is refused, MPEG's names are searched, other names are not read.
    @Test func unrecognisedContentIsChosenByName() {
        let text = Array("just some text, no audio format starts so".utf8)
        #expect(AudioFileFormat.choose(head: text, fileExtension: "FLAC") == .misnamed(fileExtension: "flac", claimed: .flac))
        #expect(AudioFileFormat.choose(head: text, fileExtension: "oga") == .misnamed(fileExtension: "oga", claimed: .vorbis))
        #expect(AudioFileFormat.choose(head: text, fileExtension: "mp3") == .unrecognised)
        #expect(AudioFileFormat.choose(head: text, fileExtension: nil) == .unrecognised)
        #expect(AudioFileFormat.choose(head: [], fileExtension: "opus") == .misnamed(fileExtension: "opus", claimed: .opus))
    }

    /// An ID3v2 tag's length as its header gives it (synchsafe size, plus a footer).
    private static func leadingTagSize(_ bytes: [UInt8]) -> Int {
        guard bytes.count >= 10, bytes.starts(with: Array("ID3".utf8)) else { return 0 }
        let size = bytes[6..<10].reduce(0) { $0 << 7 | Int($1) }
        return 10 + size + (bytes[5] & 0x10 != 0 ? 10 : 0)
    }
}
