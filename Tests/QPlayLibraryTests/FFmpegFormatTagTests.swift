import QPlayLibrary
import QPlayModel
import QPlayTestSupport
import SystemPackage
import Testing

/// FFmpeg's formats through the TagLib shim: MP4 atoms and iTunes freeform ReplayGain
/// atoms, RIFF INFO in WAV, ID3 in AIFF, APEv2 in WavPack; the depth of the lossless
/// formats and their exact lengths.
@Suite struct FFmpegFormatTagTests {
    typealias Kind = GeneratedAudio.FFmpegKind

    /// The tags each way of writing them carries: RIFF INFO has no album artist or disc.
    static func file(_ kind: Kind, bits: Int, in dir: TemporaryDirectory) throws -> FilePath {
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: 1, synth: ["sine", "440"], bits: bits)
        let name = "tagged-\(bits).\(kind.fileExtension)"
        if kind == .wavPack {
            return try GeneratedAudio.encode(
                pcm, as: kind, to: name, in: dir,
                arguments: [
                    "-w", "Title=Deep Tone", "-w", "Artist=Tone Maker", "-w", "Album=Tone Album", "-w",
                    "Album Artist=Various Tones", "-w", "Track=3/12", "-w", "Disc=1/2", "-w", "Year=2021", "-w",
                    "Genre=Ambient", "-w", "replaygain_track_gain=-6.50 dB", "-w", "replaygain_track_peak=0.501",
                ])
        }
        var metadata = [
            "title=Deep Tone", "artist=Tone Maker", "album=Tone Album", "album_artist=Various Tones", "track=3/12",
            "disc=1/2", "date=2021", "genre=Ambient",
        ]
        if kind == .aiff { metadata += ["REPLAYGAIN_TRACK_GAIN=-6.50 dB", "REPLAYGAIN_TRACK_PEAK=0.501"] }
        let extra = kind == .aiff ? ["-write_id3v2", "1"] : []
        let path = try GeneratedAudio.encode(
            pcm, as: kind, to: name, in: dir, arguments: extra + metadata.flatMap { ["-metadata", $0] })
        if kind == .aac || kind == .alac {
            try GeneratedAudio.addITunesAtom(to: path, name: "replaygain_track_gain", value: "-6.50 dB")
            try GeneratedAudio.addITunesAtom(to: path, name: "replaygain_track_peak", value: "0.501")
        }
        return path
    }

    static let cases: [(Kind, Int)] = [(.aac, 16), (.alac, 16), (.alac, 24), (.wav, 16), (.wav, 24), (.aiff, 24), (.wavPack, 16), (.wavPack, 24)]

    @Test(arguments: cases)
    func readsTagsDepthAndLength(kind: Kind, bits: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = try Self.file(kind, bits: bits, in: dir)
        let tags = try TagReader.read(path)
        #expect(tags.format.rawValue == kind.wireName)
        #expect(tags.title == "Deep Tone")
        #expect(tags.artist == "Tone Maker")
        #expect(tags.album == "Tone Album")
        #expect(tags.year == 2021)
        #expect(tags.genre == "Ambient")
        #expect(tags.sampleRate == 44100 && tags.channels == 2)
        #expect(abs(tags.durationMilliseconds - 1000) <= 50, "\(tags.durationMilliseconds) ms")
        if kind != .wav {
            // RIFF INFO has neither.
            #expect(tags.albumArtist == "Various Tones")
            #expect(tags.track == 3 && tags.trackTotal == 12)
            #expect(tags.disc == 1 && tags.discTotal == 2)
        }
        if kind != .wav {
            #expect(tags.replayGain.trackGain == -6.5)
            #expect(tags.replayGain.trackPeak == 0.501)
        }
        if kind == .aac {
            #expect(tags.bitsPerSample == nil, "AAC has no depth of its own")
        } else {
            #expect(tags.bitsPerSample == bits)
        }
        if kind != .aac {
            #expect(tags.exactSamples == 44100 || kind == .alac, "exact by nature: \(String(describing: tags.exactSamples))")
        }
    }

    /// iTunes's gapless tag gives an AAC file its exact length.
    @Test func iTunSMPBIsTheExactLength() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: 1, synth: ["sine", "440"])
        let path = try GeneratedAudio.encode(
            pcm, as: .aac, to: "itunes.m4a", in: dir, arguments: ["-use_editlist", "0", "-metadata", "title=T"])
        try GeneratedAudio.addITunSMPB(to: path, delay: 1024, padding: 1000, frames: 44100)
        #expect(try TagReader.read(path).exactSamples == 44100)
    }

    /// ALAC from ffmpeg's `mp4` muxer (`-f mp4`, as when a `.m4b` is made or chapters are
    /// added): its sample description carries a `btrt` box after the ALAC cookie, which
    /// TagLib 1.13 does not read past (no rate, so the file was skipped as not audio).
    @Test(arguments: [16, 24])
    func alacFromFFmpegsMP4MuxerIsRead(bits: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: 1, synth: ["sine", "440"], bits: bits, rate: 48000, channels: 1)
        let plain = try GeneratedAudio.encode(pcm, as: .alac, to: "plain.m4a", in: dir, arguments: ["-metadata", "title=Book"])
        let muxed = dir.appending("muxed.m4b")
        try GeneratedAudio.run(["ffmpeg", "-v", "error", "-i", plain.string, "-c", "copy", "-f", "mp4", muxed.string])
        #expect(try TemporaryDirectory.read(muxed).count > 0)
        let tags = try TagReader.read(muxed)
        #expect(tags.format.rawValue == "alac")
        #expect(tags.title == "Book")
        #expect(tags.sampleRate == 48000 && tags.channels == 1 && tags.bitsPerSample == bits)
        #expect(abs(tags.durationMilliseconds - 1000) <= 50, "\(tags.durationMilliseconds) ms")
    }
}
