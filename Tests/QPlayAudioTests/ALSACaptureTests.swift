import QPlayAudio
import QPlayTestSupport
import SystemPackage
import Testing

/// Real libasound2 into a PCM of type `file`: what the device was given is read back.
@Suite struct ALSACaptureTests {
    @Test(arguments: SampleCatalog.all)
    func capturedStreamIsTheDecodedTrack(_ sample: SampleEntry) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let decoded = try decodeAll(try MPG123Decoder(path: sample.path))

        let output = ALSAOutput(device: ALSACapture.device, configFile: capture.configFile, pacing: .never)
        let written = try AudioPump.copy(from: try MPG123Decoder(path: sample.path), to: output)
        try output.drain()
        output.close()

        let captured = try capture.samples()
        #expect(written == sample.frames)
        #expect(captured.count == sample.frames * sample.channels, "to the sample")
        #expect(captured == decoded, "the device got exactly the decoder's samples")
        let hz = ToneAnalysis.frequency(of: captured, channels: sample.channels, sampleRate: sample.sampleRate)
        #expect(SampleCatalog.nearestTone(to: hz).file == sample.file, "measured \(hz) Hz")
        #expect(abs(hz - sample.toneHz) < sample.toneHz * 0.005, "measured \(hz) Hz")
        #expect(output.underruns == 0)
    }

    @Test func captureCoversEveryOpenOfTheDevice() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let first = [Int16](repeating: 1000, count: 4410 * 2)
        let second = [Int16](repeating: -2000, count: 2205 * 2)
        // As a player does after idling: close, later reopen (alsa-lib starts a new file).
        for part in [first, second] {
            let output = ALSAOutput(device: ALSACapture.device, configFile: capture.configFile, pacing: .never)
            try output.open(format: .cd)
            try part.withUnsafeBufferPointer { try output.write(UnsafeRawBufferPointer($0)) }
            try output.drain()
            output.close()
        }
        #expect(capture.opens == 2)
        #expect(try capture.samples() == first + second, "both opens, in order")
    }

    @Test func alsaFileDeviceIsPacedToRealTimeByDefault() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let output = ALSAOutput(device: ALSACapture.device, configFile: capture.configFile)
        try output.open(format: .cd)
        let second = [Int16](repeating: 0, count: 44100 * 2)
        try second.withUnsafeBufferPointer { try output.write(UnsafeRawBufferPointer($0)) }
        // A paced device reports what has not been "heard" yet; an unpaced one reports 0.
        #expect(output.delayFrames > 0)
        output.close()
    }

    @Test func unknownDeviceIsAClearError() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let output = ALSAOutput(device: "qplay_no_such_device", configFile: capture.configFile)
        let error = #expect(throws: AudioOutputError.self) { try output.open(format: .cd) }
        #expect(error?.output == "alsa:qplay_no_such_device")
        #expect(error?.reason.contains("cannot open device") == true)
    }

    @Test func unwritableCaptureFileFailsOnWriteNotCrash() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let config = dir.appending("bad.conf")
        let text = """
            pcm.capture { type file slave { pcm { type null } } file "/nonexistent/dir/x.raw" format "raw" }

            """
        try dir.write(Array(text.utf8), to: config)
        let output = ALSAOutput(device: "capture", configFile: config, pacing: .never)
        let silence = [Int16](repeating: 0, count: 44100 * 2)
        #expect(throws: AudioOutputError.self) {
            try output.open(format: .cd)
            for _ in 0..<4 { try silence.withUnsafeBufferPointer { try output.write(UnsafeRawBufferPointer($0)) } }
            try output.drain()
        }
        output.close()
    }
}
