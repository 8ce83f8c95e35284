import QPlayAudio
import QPlayTestSupport
import SystemPackage
import Testing

@Suite struct OutputTests {
    @Test func parsesOutputSpecs() throws {
        #expect(try OutputSpec(parsing: "alsa") == .alsa(device: "default"))
        #expect(try OutputSpec(parsing: "alsa:hw:1,0") == .alsa(device: "hw:1,0"))
        #expect(try OutputSpec(parsing: "null") == .null)
        #expect(try OutputSpec(parsing: "file:/tmp/a b.raw") == .file(FilePath("/tmp/a b.raw")))
        #expect(try OutputSpec(parsing: "pipe:/run/snapfifo") == .pipe(FilePath("/run/snapfifo")))
        for bad in ["", "alsa:", "file:", "pulse", "null:x", "FILE:/x"] {
            #expect(throws: AudioOutputError.self, "\(bad)") { try OutputSpec(parsing: bad) }
        }
    }

    @Test func fileOutputAppendsCDAudioConvertedFromAnyTrack() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.appending("out.raw")
        let output = RawPCMOutput(kind: .pipe, path: path)  // pipe: unpaced, fine for a plain file
        try dir.write([], to: path)
        let mono = SampleCatalog.named("Test Tones/Love Songs/03 Love Theme.mp3")
        let stereo = SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3")
        try AudioPump.copy(from: try DecoderRegistry.standard.open(mono.path, converting: output.requiredFormat), to: output)
        try AudioPump.copy(from: try DecoderRegistry.standard.open(stereo.path, converting: output.requiredFormat), to: output)
        output.close()
        let bytes = try TemporaryDirectory.read(path)
        #expect(bytes.count == (mono.frames + stereo.frames) * 4)
        let samples = stride(from: 0, to: bytes.count - 1, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
        let first = samples[..<(mono.frames * 2)]
        let second = samples[(mono.frames * 2)...]
        #expect(abs(ToneAnalysis.frequency(of: first, channels: 2, channel: 1, sampleRate: 44100) - mono.toneHz) < 2)
        #expect(abs(ToneAnalysis.frequency(of: second, channels: 2, sampleRate: 44100) - stereo.toneHz) < 2)
    }

    @Test func rawOutputRefusesOtherFormats() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let output = RawPCMOutput(kind: .file, path: dir.appending("x.raw"))
        #expect(throws: AudioOutputError.self) {
            try output.open(format: AudioFormat(sampleRate: 48000, channels: 2))
        }
    }
}
