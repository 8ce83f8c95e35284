import QPlayAudio
import QPlayTestSupport
import SystemPackage
import Testing

/// Decodes everything a 16-bit decoder hands out, as the 16-bit samples a 16-bit
/// output receives (the pipeline's samples are left-justified in 32 bits).
func decodeAll(_ decoder: any AudioDecoder) throws -> [Int16] {
    var all: [Int16] = []
    var buffer = [Int32](repeating: 0, count: 4096)
    while true {
        let count = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
        if count == 0 { return all }
        all += buffer[..<count].map { Int16(truncatingIfNeeded: $0 >> 16) }
    }
}

@Suite struct DecoderTests {
    @Test(arguments: SampleCatalog.all)
    func decodesEachSampleGaplessToItsExactLength(_ sample: SampleEntry) throws {
        let decoder = try MPG123Decoder(path: sample.path)
        #expect(decoder.format == AudioFormat(sampleRate: sample.sampleRate, channels: sample.channels))
        #expect(decoder.frameCount == sample.frames)
        let samples = try decodeAll(decoder)
        #expect(samples.count == sample.frames * sample.channels)
        let hz = ToneAnalysis.frequency(of: samples, channels: sample.channels, sampleRate: sample.sampleRate)
        #expect(abs(hz - sample.toneHz) < sample.toneHz * 0.005, "measured \(hz) Hz")
    }

    @Test func convertsToAFixedOutputFormat() throws {
        // 48 kHz stereo and 44.1 kHz mono both become CD audio for file:/pipe: outputs.
        for file in ["Test Tones/Love Songs/02 Endless Love.mp3", "Test Tones/Love Songs/03 Love Theme.mp3"] {
            let sample = SampleCatalog.named(file)
            let decoder = try DecoderRegistry.standard.open(sample.path, converting: .cd)
            #expect(decoder.format.joins(.cd))
            let samples = try decodeAll(decoder)
            let frames = samples.count / 2
            #expect(abs(frames - sample.seconds * 44100) <= 44100 / 100, "\(file): \(frames) frames")
            for channel in 0..<2 {
                let hz = ToneAnalysis.frequency(of: samples, channels: 2, channel: channel, sampleRate: 44100)
                #expect(abs(hz - sample.toneHz) < sample.toneHz * 0.005, "\(file) ch\(channel): \(hz) Hz")
            }
        }
    }

    @Test func seeksToAFrame() throws {
        let sample = SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3")
        let decoder = try MPG123Decoder(path: sample.path)
        try decoder.seek(toFrame: 2 * sample.sampleRate)
        #expect(decoder.framePosition == 2 * sample.sampleRate)
        let rest = try decodeAll(decoder)
        #expect(rest.count / sample.channels == sample.frames - 2 * sample.sampleRate)
    }

    @Test func badFilesGiveErrorsNotCrashes() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let empty = dir.appending("empty.mp3")
        try dir.write([], to: empty)
        let garbage = dir.appending("garbage.mp3")
        try dir.write(pseudoRandomBytes(count: 200_000, seed: 7), to: garbage)
        let text = dir.appending("text.mp3")
        try dir.write(Array(String(repeating: "not audio at all\n", count: 500).utf8), to: text)
        let missing = dir.appending("missing.mp3")
        for path in [empty, garbage, text, missing] {
            #expect(throws: DecoderError.self, "\(path)") { try MPG123Decoder(path: path) }
        }
    }

    @Test func truncatedFileDecodesWhatIsThere() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let sample = SampleCatalog.named("Test Tones/Day Cycle/02 Evening.mp3")
        let bytes = try TemporaryDirectory.read(sample.path)
        let truncated = dir.appending("truncated.mp3")
        try dir.write(Array(bytes.prefix(bytes.count / 2)), to: truncated)
        let decoder = try MPG123Decoder(path: truncated)
        let frames = try decodeAll(decoder).count / sample.channels
        #expect(frames > sample.frames / 3 && frames < sample.frames)
    }

    @Test func fileNameThatIsNotUTF8() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let sample = SampleCatalog.named("Various/Straße.mp3")
        let odd = dir.appending(rawName: [0x53, 0x74, 0x72, 0x61, 0xDF, 0x65, 0xFF, 0x2E, 0x6D, 0x70, 0x33])
        try dir.copy(sample.path, to: odd)
        let decoder = try MPG123Decoder(path: odd)
        #expect(try decodeAll(decoder).count == sample.frames * sample.channels)
    }
}

@Suite struct DecoderSeekTests {
    @Test(arguments: [true, false])
    func seekInVBRAndCBRIsSampleAccurate(vbr: Bool) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let sweep = try GeneratedAudio.sweep(in: dir, vbr: vbr)
        let reference = try decodeAll(try MPG123Decoder(path: sweep))
        for target in [200_000, 44_100, 123_457, 0, 250_000] {
            let decoder = try MPG123Decoder(path: sweep)
            try decoder.seek(toFrame: target)
            #expect(decoder.framePosition == target)
            #expect(decoder.isIndexed)
            let rest = try decodeAll(decoder)
            #expect(rest.count == reference.count - target * 2)
            let worst = PCMCompare.maxDifference(rest, at: 0, reference, at: target, frames: rest.count / 2, channels: 2)
            #expect(worst <= 2, "frame \(target): max difference \(worst)")
        }
    }
}
