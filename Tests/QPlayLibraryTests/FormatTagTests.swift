import Foundation
import QPlayLibrary
import QPlayTestSupport
import SystemPackage
import Testing

/// FLAC, Ogg Vorbis and Opus through the TagLib shim: tags, format facts, exact lengths
/// (against the reference tools where Debian has one), R128 gains, pictures that are not
/// read, and damaged files that fail cleanly.
@Suite struct FormatTagTests {
    @Test(arguments: SampleCatalog.formats)
    func readsEachFormatSampleAsListed(_ sample: FormatSampleEntry) throws {
        let tags = try TagReader.read(sample.path)
        #expect(tags.format.rawValue == sample.format)
        #expect(tags.title == sample.title)
        #expect(tags.artist == sample.artist)
        #expect(tags.album == sample.album)
        #expect(tags.albumArtist == sample.albumArtist)
        #expect(tags.track == sample.track)
        #expect(tags.trackTotal == sample.trackTotal)
        #expect(tags.disc == sample.disc)
        #expect(tags.sampleRate == sample.sampleRate)
        #expect(tags.channels == sample.channels)
        #expect(tags.bitsPerSample == sample.bits)
        #expect(tags.exactSamples == sample.frames)
        #expect(tags.duration == sample.seconds)
        #expect(tags.replayGain.trackGain == sample.trackGain)
        #expect(tags.replayGain.trackPeak == sample.trackPeak)
        #expect(tags.replayGain.albumGain == sample.albumGain)
        #expect(tags.replayGain.albumPeak == sample.albumPeak)
        #expect(tags.bitrateKbps > 0)
    }

    /// metaflac reads STREAMINFO; soxi's Vorbis length is libvorbisfile's ov_pcm_total.
    @Test func exactLengthsEqualTheReferenceTools() throws {
        for sample in SampleCatalog.formats where sample.format != "opus" {
            let reference: ProcessResult
            if sample.format == "flac" {
                reference = try runProcess(
                    URL(fileURLWithPath: "/usr/bin/metaflac"), ["--show-total-samples", sample.path.string])
            } else {
                reference = try runProcess(URL(fileURLWithPath: "/usr/bin/soxi"), ["-s", sample.path.string])
            }
            #expect(reference.status == 0, "\(sample): \(reference.stderr)")
            let frames = Int(reference.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(frames == sample.frames, "\(sample)")
            #expect(try TagReader.read(sample.path).exactSamples == frames, "\(sample)")
        }
    }

    @Test func opusGainsAreConvertedFromR128AndWinOverReplayGainTags() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let wav = dir.appending("tone.wav")
        try sox(["-n", "-r", "48000", "-c", "1", "-b", "16", wav.string, "synth", "0.5", "sine", "500"])
        func encode(_ name: String, _ comments: [String]) throws -> TagInfo {
            let path = dir.appending(name)
            let result = try runProcess(
                URL(fileURLWithPath: "/usr/bin/opusenc"),
                ["--quiet"] + comments.flatMap { ["--comment", $0] } + [wav.string, path.string])
            #expect(result.status == 0, "\(result.stderr)")
            return try TagReader.read(path)
        }
        let both = try encode(
            "both.opus", ["R128_TRACK_GAIN=-2560", "REPLAYGAIN_TRACK_GAIN=-1.00 dB", "R128_ALBUM_GAIN=0"])
        #expect(both.replayGain.trackGain == -5.0)  // -10 dB at -23 LUFS is -5 dB at -18 LUFS
        #expect(both.replayGain.albumGain == 5.0)
        let rgOnly = try encode("rg.opus", ["REPLAYGAIN_TRACK_GAIN=-1.00 dB"])
        #expect(rgOnly.replayGain.trackGain == -1.0)
        let bad = try encode("bad.opus", ["R128_TRACK_GAIN=loud", "R128_ALBUM_GAIN=1.5", "R128_ALBUM_GAIN=99999"])
        #expect(bad.replayGain.trackGain == nil && bad.replayGain.albumGain == nil)
        #expect(bad.format == .opus && bad.exactSamples == 24000)
    }

    @Test func replayGainTagsOfVorbisCommentsAreRead() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.appending("tagged.flac")
        try dir.copy(SampleCatalog.formats.first { $0.format == "flac" && $0.bits == 24 }!.path, to: path)
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/metaflac"),
            ["--set-tag=REPLAYGAIN_TRACK_GAIN=+2.25 dB", "--set-tag=REPLAYGAIN_ALBUM_PEAK=0.75", path.string])
        #expect(result.status == 0, "\(result.stderr)")
        let tags = try TagReader.read(path)
        #expect(tags.replayGain.trackGain == 2.25 && tags.replayGain.albumPeak == 0.75)
    }

    /// A FLAC cover is handed to TagLib as zeros: the scan reads the tags, not the 8 MB.
    @Test func largeFlacPictureIsNotRead() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let sample = SampleCatalog.formats.first { $0.format == "flac" && $0.bits == 24 }!
        let path = dir.appending("covered.flac")
        try dir.copy(sample.path, to: path)
        let picture = dir.appending("cover.png")
        // A PNG signature and 8 MB of noise: metaflac only checks the signature.
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        try dir.write(png + pseudoRandomBytes(count: 8 << 20, seed: 7), to: picture)
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/metaflac"), ["--import-picture-from=3|image/png||600x600x24|\(picture.string)", path.string])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: path.string)[.size] as! Int > 8 << 20)
        let (tags, bytesRead) = TagReader.readMetered(path)
        #expect(try tags.get().title == sample.title)
        #expect(try tags.get().exactSamples == sample.frames)
        #expect(bytesRead < 1 << 20, "read \(bytesRead) bytes")
    }

    /// A METADATA_BLOCK_PICTURE comment in an Ogg file is handed to TagLib as zeros too;
    /// the comments after it read as before.
    @Test func largeOggPictureCommentIsNotRead() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.appending("covered.ogg")
        try dir.copy(SampleCatalog.formats.first { $0.format == "vorbis" }!.path, to: path)
        // A FLAC picture block (RFC 9639 section 8.8) around 6 MB of noise, base64 as the tag holds it.
        func be32(_ n: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((n >> $0) & 0xFF) } }
        let image = pseudoRandomBytes(count: 6 << 20, seed: 9)
        let block = be32(3) + be32(9) + Array("image/png".utf8) + be32(0) + be32(600) + be32(600) + be32(24)
            + be32(0) + be32(image.count) + image
        let comments = dir.appending("comments.txt")
        let text = "TITLE=Pictured\nMETADATA_BLOCK_PICTURE=\(Data(block).base64EncodedString())\nARTIST=After The Picture\n"
        try dir.write(Array(text.utf8), to: comments)
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/vorbiscomment"), ["-w", "-c", comments.string, path.string])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: path.string)[.size] as! Int > 8 << 20)
        let (tags, bytesRead) = TagReader.readMetered(path)
        let info = try tags.get()
        #expect(info.title == "Pictured" && info.artist == "After The Picture")
        #expect(info.exactSamples == SampleCatalog.formats.first { $0.format == "vorbis" }!.frames)
        #expect(bytesRead < 1 << 20, "read \(bytesRead) bytes")
    }

    /// Ogg FLAC is audio qplay does not play; a WAV named .flac is played (by FFmpeg)
    /// and read as the WAV it is.
    @Test func oggFlacIsAudioQPlayDoesNotPlayAndAWAVNamedFLACIsAWAV() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let wav = dir.appending("tone.wav")
        try sox(["-n", "-r", "44100", "-c", "2", "-b", "16", wav.string, "synth", "0.5", "sine", "600"])
        let oggFlac = dir.appending("ogg-flac.oga")
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/flac"), ["--silent", "--ogg", "-o", oggFlac.string, wav.string])
        #expect(result.status == 0, "\(result.stderr)")
        let wavNamedFlac = dir.appending("wave.flac")
        try dir.copy(wav, to: wavNamedFlac)
        // Refused by content before TagLib parses it, with the decoder registry's words.
        #expect(throws: TagReadError.misnamed(fileExtension: "oga", claimed: .vorbis)) { try TagReader.read(oggFlac) }
        #expect(try TagReader.read(wavNamedFlac).format == .wav)
        #expect(
            "\(TagReadError.misnamed(fileExtension: "flac", claimed: .flac))"
                == "not a file qplay plays (MP3, FLAC, Ogg Vorbis, Opus, AAC, ALAC, WAV, AIFF, WavPack): named .flac, but no flac audio")
    }

    /// Each format cut short, as random bytes, as text, as zeros: a clean error or a
    /// shorter length, never a crash or a length past the end.
    @Test(arguments: SampleCatalog.formats.filter { $0.file.hasSuffix(".opus") || $0.file.hasSuffix(".ogg") || $0.bits == 24 })
    func damagedFilesFailCleanly(_ sample: FormatSampleEntry) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let bytes = try TemporaryDirectory.read(sample.path)
        let ext = sample.path.extension!
        let damaged: [(String, [UInt8])] =
            [bytes.count * 3 / 4, bytes.count / 2, 5000, 60].map { ("cut-\($0).\(ext)", Array(bytes.prefix($0))) }
            + [("headers-then-noise.\(ext)", Array(bytes.prefix(40)) + pseudoRandomBytes(count: 50_000, seed: 3))]
        for (name, content) in damaged {
            let cut = dir.appending(name)
            try dir.write(content, to: cut)
            do {
                let tags = try TagReader.read(cut)
                #expect(tags.duration <= sample.seconds, "\(cut): \(tags.duration)")
            } catch {
                // A clean refusal is fine too.
            }
        }
        let cases: [(String, [UInt8])] = [
            ("random.\(ext)", pseudoRandomBytes(count: 200_000, seed: 11)),
            ("text.\(ext)", Array(String(repeating: "not music at all\n", count: 500).utf8)),
            ("empty.\(ext)", []),
        ]
        for (name, content) in cases {
            let path = dir.appending(name)
            try dir.write(content, to: path)
            let error = #expect(throws: TagReadError.self, "\(name)") { try TagReader.read(path) }
            #expect(error.map { $0 != .libraryFailure } ?? false, "\(name): \(String(describing: error))")
        }
    }

    /// Two Vorbis streams one after the other (each with its own serial number): the
    /// links count from their own start, so no one granule gives the length; the file is
    /// indexed with TagLib's length of it.
    @Test func chainedOggIsIndexedAsFarAsItCanBe() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let wav = dir.appending("tone.wav")
        try sox(["-n", "-r", "44100", "-c", "2", "-b", "16", wav.string, "synth", "1", "sine", "700"])
        var chained: [UInt8] = []
        for serial in [1, 2] {
            let link = dir.appending("link\(serial).ogg")
            let result = try runProcess(
                URL(fileURLWithPath: "/usr/bin/oggenc"),
                ["--quiet", "-s", "\(serial)", "-t", "Link \(serial)", "-o", link.string, wav.string])
            #expect(result.status == 0, "\(result.stderr)")
            chained += try TemporaryDirectory.read(link)
        }
        let path = dir.appending("chained.ogg")
        try dir.write(chained, to: path)
        let tags = try TagReader.read(path)
        #expect(tags.format == .vorbis && tags.title == "Link 1")
        #expect(tags.exactSamples == nil)
        #expect(tags.duration > 0 && tags.duration <= 2)
    }

    /// A stream recorded from the middle: its first audio granule is far from 0. The
    /// length counts from the first audio page (start offset = its granule less the
    /// samples of its packets): for Vorbis exactly as libvorbisfile (soxi) counts it,
    /// which also checks the mode table read backwards from the setup header; for Opus
    /// the whole length less the granule of the last page left out.
    @Test(arguments: ["vorbis", "opus"])
    func streamRecordedFromTheMiddleCountsFromItsFirstAudioPage(_ format: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // 20 s: enough pages to leave some out.
        let wav = dir.appending("tone.wav")
        try sox(["-n", "-r", "48000", "-c", "2", "-b", "16", wav.string, "synth", "20", "sine", "440"])
        let whole = dir.appending(format == "vorbis" ? "whole.ogg" : "whole.opus")
        let encoder =
            format == "vorbis"
            ? ["/usr/bin/oggenc", "--quiet", "-o", whole.string, wav.string]
            : ["/usr/bin/opusenc", "--quiet", wav.string, whole.string]
        let encoded = try runProcess(URL(fileURLWithPath: encoder[0]), Array(encoder.dropFirst()))
        #expect(encoded.status == 0, "\(encoded.stderr)")
        let fullLength = 20 * 48000
        #expect(try TagReader.read(whole).exactSamples == fullLength)
        let cut = dir.appending("middle.\(whole.extension!)")
        // Drops the first audio pages (gen-library's Ogg helpers), renumbering the rest;
        // prints the granule of the last page dropped.
        let script = """
            import importlib.machinery, importlib.util, sys
            loader = importlib.machinery.SourceFileLoader("genlib", sys.argv[1])
            spec = importlib.util.spec_from_loader("genlib", loader)
            g = importlib.util.module_from_spec(spec)
            loader.exec_module(g)
            data = open(sys.argv[2], "rb").read()
            headers = 3 if sys.argv[4] == "vorbis" else 2
            _, audio, _ = g.split_ogg(data, headers)
            head = data[:audio[0][0]]
            sequence = len(g.ogg_pages(head))
            drop = next(i for i in range(3, len(audio)) if not audio[i][1] & 1)
            out = head
            for _, kind, granule, serial, segments, body in audio[drop:]:
                out += g.ogg_page(kind, granule, serial, sequence, segments, body)
                sequence += 1
            open(sys.argv[3], "wb").write(out)
            print(audio[drop - 1][2])
            """
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", "-c", script, SampleCatalog.repositoryRoot.appending("scripts/gen-library").string,
             whole.string, cut.string, format])
        #expect(result.status == 0, "\(result.stderr)")
        let dropped = try #require(Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(dropped > 0)
        let tags = try TagReader.read(cut)
        if format == "vorbis" {
            let soxi = try runProcess(URL(fileURLWithPath: "/usr/bin/soxi"), ["-s", cut.string])
            #expect(soxi.status == 0, "\(soxi.stderr)")
            #expect(tags.exactSamples == Int(soxi.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
            // Less than the whole, and less than the pages left: the first packet after
            // the cut only primes the decoder's overlap.
            #expect(tags.exactSamples.map { $0 < fullLength - dropped } == true)
        } else {
            #expect(tags.exactSamples == fullLength - dropped)
        }
    }

    /// Bytes flipped in the headers, comment pages and last pages of each format: read or
    /// refused, never a crash, never a length past what the stream could hold.
    @Test func mutatedFilesNeverCrash() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var random = SeededRandom(seed: 1234)
        for sample in SampleCatalog.formats {
            let original = try TemporaryDirectory.read(sample.path)
            let channelField = try #require(Self.channelField(in: original, sample.format), "\(sample)")
            #expect(Self.channels(at: channelField, in: original, sample.format) == sample.channels)
            let path = dir.appending("mutant.\(sample.path.extension!)")
            var read = 0
            for _ in 0..<60 {
                var bytes = original
                for _ in 0..<(1 + Int(random.next() % 8)) {
                    // Mostly where the shim parses: the first 8 KB and the last 8 KB.
                    let window = min(bytes.count, 8192)
                    let offset = Int(random.next() % UInt64(window))
                    let at = random.next() % 2 == 0 ? offset : bytes.count - 1 - offset
                    bytes[at] = UInt8(truncatingIfNeeded: random.next())
                }
                if random.next() % 4 == 0 { bytes.removeLast(Int(random.next() % UInt64(bytes.count / 2))) }
                try dir.write(bytes, to: path)
                guard let tags = try? TagReader.read(path) else { continue }
                read += 1
                #expect(tags.duration >= 0 && tags.duration.isFinite, "\(sample): \(tags.duration)")
                #expect((tags.exactSamples ?? 0) >= 0 && tags.sampleRate > 0)
                // What the mutant's own header says (a flipped byte may have changed it).
                #expect(tags.channels == Self.channels(at: channelField, in: bytes, sample.format), "\(sample)")
            }
            #expect(read > 0, "\(sample): no mutant read at all")
        }
    }

    /// Where the stream header holds the channel count: STREAMINFO's byte 12 after "fLaC"
    /// and the block header, the identification header's byte 11 after its 0x01 "vorbis"
    /// start, OpusHead's byte 9.
    private static func channelField(in bytes: [UInt8], _ format: String) -> Int? {
        let (signature, offset): ([UInt8], Int) = switch format {
        case "flac": (Array("fLaC".utf8), 4 + 4 + 12)
        case "vorbis": ([1] + Array("vorbis".utf8), 11)
        default: (Array("OpusHead".utf8), 9)
        }
        let start = (0...(bytes.count - signature.count)).first { bytes[$0..<($0 + signature.count)].elementsEqual(signature) }
        return start.map { $0 + offset }
    }

    /// FLAC keeps channels − 1 in bits 3…1 of its byte; Vorbis and Opus a whole byte.
    private static func channels(at field: Int, in bytes: [UInt8], _ format: String) -> Int {
        format == "flac" ? Int(bytes[field] >> 1 & 0x07) + 1 : Int(bytes[field])
    }

    private func sox(_ arguments: [String]) throws {
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/sox"), ["-R", "-D"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
    }
}
