import Foundation
import QPlayAudio
import QPlayTestSupport
import SystemPackage
import Testing

/// Damaged FLAC files, opened as playback opens them (by content): each plays what it
/// can or fails with a reason for people; none crashes or hangs (every attempt runs on
/// a thread of its own with a generous limit, see `attempt`).
@Suite struct FLACRobustnessTests {
    /// A 2 s 16-bit stereo sweep as FLAC, and its bytes.
    private static func sweep(in dir: TemporaryDirectory) throws -> (pcm: GeneratedPCM, bytes: [UInt8]) {
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: 2, bits: 16)
        let flac = try GeneratedAudio.flac(pcm, in: dir, name: "sweep.flac")
        return (pcm, try TemporaryDirectory.read(flac))
    }

    private static func play(_ bytes: [UInt8], in dir: TemporaryDirectory, name: String) throws -> DecodeAttempt {
        let path = dir.appending(name)
        try dir.write(bytes, to: path)
        return try attempt(path) { path throws(DecoderError) in try DecoderRegistry.standard.open(path) }
    }

    @Test func truncatedFilePlaysWhatIsThere() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (pcm, bytes) = try Self.sweep(in: dir)
        let result = try Self.play(Array(bytes.prefix(bytes.count / 2)), in: dir, name: "half.flac")
        #expect(result.openError == nil)
        #expect(result.readError == nil, "a cut-off last frame is the end, not an error")
        #expect(result.frameCount == pcm.frames, "STREAMINFO still says the whole length")
        #expect(result.frames > pcm.frames / 3 && result.frames < pcm.frames)

        // Cut inside the metadata: no stream to play.
        let stub = try Self.play(Array(bytes.prefix(20)), in: dir, name: "stub.flac")
        #expect(stub.openError != nil || stub.frames == 0, "\(stub)")
    }

    @Test func aFailedSeekIsReportedAndTheNextSeekWorks() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (pcm, bytes) = try Self.sweep(in: dir)
        let half = dir.appending("half.flac")
        try dir.write(Array(bytes.prefix(bytes.count / 2)), to: half)
        let decoder = try FLACDecoder(path: half)
        #expect(decoder.frameCount == pcm.frames, "STREAMINFO says more than the file holds")
        // Into the part cut off: libFLAC cannot land there.
        let error = #expect(throws: DecoderError.self) { try decoder.seek(toFrame: pcm.frames - 1000) }
        let reason = error?.reason ?? ""
        #expect(reason.hasPrefix("decoder error at ") && reason.contains("cannot seek to frame \(pcm.frames - 1000)"), "\(reason)")
        // Flushed after the failure: a seek to where the file has audio plays from there.
        try decoder.seek(toFrame: 10_000)
        #expect(decoder.framePosition == 10_000)
        let rest = try decodeAllWide(decoder)
        #expect(rest.count > 0 && rest[...] == pcm.leftJustified[(10_000 * 2)..<(10_000 * 2 + rest.count)])
    }

    @Test func flippedBytesMidFilePlayOnWithTheTimelineWhole() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (pcm, bytes) = try Self.sweep(in: dir)
        var damaged = bytes
        for index in (bytes.count / 2)..<(bytes.count / 2 + 64) { damaged[index] ^= 0xA5 }
        let result = try Self.play(damaged, in: dir, name: "flipped.flac")
        #expect(result.openError == nil)
        #expect(result.readError == nil)
        // The damaged frame plays as silence or is skipped (its neighbour's header too at
        // worst): at most two blocks of 4,096 frames go missing.
        #expect(result.frames <= pcm.frames && result.frames >= pcm.frames - 2 * 4096, "\(result.frames) of \(pcm.frames)")
    }

    @Test func randomBytesAfterTheMarkerAreRefusedOrYieldNothing() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        for seed in UInt64(1)...6 {
            let bytes = Array("fLaC".utf8) + pseudoRandomBytes(count: 300_000, seed: seed)
            let result = try Self.play(bytes, in: dir, name: "random-\(seed).flac")
            // Whatever libFLAC makes of it, the attempt returned (no crash, no hang) and
            // a failure has a reason.
            if let reason = result.openError ?? result.readError { #expect(!reason.isEmpty) }
        }
        // Random metadata that claims no stream info: a clear refusal.
        let noInfo = Array("fLaC".utf8) + [0x81, 0, 0, 4, 1, 2, 3, 4] + pseudoRandomBytes(count: 1000, seed: 9)
        let result = try Self.play(noInfo, in: dir, name: "no-info.flac")
        #expect(result.openError == "no FLAC stream info in the file", "\(result)")
    }

    @Test func markerBeforeGigabytesOfZerosIsRefused() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let zeros = dir.appending("zeros.flac")
        try dir.write(Array("fLaC".utf8), to: zeros)
        // Sparse: 2 GB of zeros without 2 GB of disk. Metadata is read without the junk
        // budget; libFLAC finds no STREAMINFO in the first block of zeros and stops.
        #expect(truncate(zeros.string, off_t(2 << 30)) == 0)
        let result = try attempt(zeros) { path throws(DecoderError) in try DecoderRegistry.standard.open(path) }
        #expect(result.openError == "no FLAC stream info in the file", "\(result)")
    }

    @Test func shortJunkBetweenFramesIsSkipped() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (pcm, bytes) = try Self.sweep(in: dir)
        let middle = bytes.count / 2
        let damaged = Array(bytes[..<middle]) + pseudoRandomBytes(count: 10_000, seed: 3) + Array(bytes[middle...])
        let result = try Self.play(damaged, in: dir, name: "junk.flac")
        #expect(result.openError == nil)
        #expect(result.readError == nil)
        #expect(result.frames <= pcm.frames && result.frames >= pcm.frames - 2 * 4096, "\(result.frames) of \(pcm.frames)")
    }

    @Test func junkBeyondTheBudgetIsADecoderErrorAfterTheAudioBeforeIt() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (pcm, bytes) = try Self.sweep(in: dir)
        let middle = bytes.count / 2
        let damaged = Array(bytes[..<middle]) + [UInt8](repeating: 0, count: 2 << 20) + Array(bytes[middle...])
        let result = try Self.play(damaged, in: dir, name: "zeros.flac")
        #expect(result.openError == nil)
        #expect(result.frames > pcm.frames / 3 && result.frames < pcm.frames)
        let reason = try #require(result.readError)
        #expect(reason.hasPrefix("decoder error at 0:0"), "\(reason)")
        // Zeros hold no false frame sync, so libFLAC names no error of its own here.
        #expect(reason.hasSuffix(": no audio in 256 KB"), "\(reason)")
    }

    @Test func aFormatChangeMidStreamIsAnError() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (pcm, bytes) = try Self.sweep(in: dir)
        let other = try GeneratedAudio.pcm(in: dir, seconds: 1, bits: 16, rate: 48000)
        let otherBytes = try TemporaryDirectory.read(try GeneratedAudio.flac(other, in: dir, name: "other.flac"))
        // The second file's frames (its metadata left out) after the whole first file.
        let result = try Self.play(bytes + Array(otherBytes[try Self.framesStart(otherBytes)...]), in: dir, name: "mixed.flac")
        #expect(result.openError == nil)
        #expect(result.frames == pcm.frames, "the first stream, whole")
        #expect(result.readError == "decoder error at 0:02: format changes within the file", "\(result)")
    }

    /// Where the first frame starts: after `fLaC` and the metadata blocks.
    private static func framesStart(_ bytes: [UInt8]) throws -> Int {
        var offset = 4
        while true {
            try #require(offset + 4 <= bytes.count)
            let last = bytes[offset] & 0x80 != 0
            offset += 4 + (Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
            if last { return offset }
        }
    }
}
