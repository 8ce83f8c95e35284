import Foundation
import QPlayAudio
import QPlayTestSupport
import SystemPackage
import Testing

/// Files that used to block the audio thread or keep it busy for minutes: each must be
/// refused or played quickly with a reason for people. Every attempt runs on a thread of
/// its own with a generous limit, so a regression fails the test instead of hanging it.
@Suite struct DecoderRobustnessTests {
    @Test func fifoWithoutWriterIsRefusedAtOnce() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let fifo = dir.appending("fifo.mp3")
        #expect(mkfifo(fifo.string, 0o644) == 0)
        #expect(try attempt(fifo).openError == "not a regular file")
    }

    @Test func deviceAndDirectoryAreRefused() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let zero = dir.appending("zero.mp3")
        #expect(symlink("/dev/zero", zero.string) == 0)
        #expect(try attempt(zero).openError == "not a regular file")
        let folder = dir.appending("folder.mp3")
        #expect(mkdir(folder.string, 0o755) == 0)
        #expect(try attempt(folder).openError == "not a regular file")
    }

    @Test func unopenableFilesHaveHumanReasons() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(try attempt(dir.appending("missing.mp3")).openError == "file not found")
        let loop = dir.appending("loop.mp3")
        #expect(symlink(loop.string, loop.string) == 0)
        #expect(try attempt(loop).openError == "too many symlinks")
        let empty = dir.appending("empty.mp3")
        try dir.write([], to: empty)
        #expect(try attempt(empty).openError == "empty file")
    }

    @Test(.enabled(if: geteuid() != 0, "root reads any file"))
    func unreadableFileIsPermissionDenied() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let locked = dir.appending("locked.mp3")
        try dir.copy(SampleCatalog.named("untagged.mp3").path, to: locked)
        #expect(chmod(locked.string, 0) == 0)
        #expect(try attempt(locked).openError == "permission denied")
    }

    @Test(arguments: [2 << 20, 2 << 30])
    func zerosAreNoMPEGAudio(size: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let zeros = dir.appending("zeros.mp3")
        try dir.write([], to: zeros)
        // Sparse: 2 GB of zeros without 2 GB of disk.
        #expect(truncate(zeros.string, off_t(size)) == 0)
        let reason = try #require(try attempt(zeros).openError)
        #expect(reason.hasPrefix("no MPEG audio"), "\(reason)")
    }

    @Test func textIsNoMPEGAudio() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let text = dir.appending("text.mp3")
        try dir.write(Array(String(repeating: "not audio at all\n", count: 2000).utf8), to: text)
        let reason = try #require(try attempt(text).openError)
        #expect(reason.hasPrefix("no MPEG audio"), "\(reason)")
    }

    @Test func largeID3v2TagInFrontStillPlaysWhole() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let sample = SampleCatalog.named("untagged.mp3")
        let tagged = dir.appending("tagged.mp3")
        try dir.write(MP3Bytes.id3v2Tag(paddedTo: 1 << 20) + (try TemporaryDirectory.read(sample.path)), to: tagged)
        let result = try attempt(tagged)
        #expect(result.openError == nil)
        #expect(result.readError == nil)
        #expect(result.frameCount == sample.frames)
        #expect(result.frames == sample.frames)
    }

    @Test func shortJunkMidFileIsSkipped() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let part = try MP3Bytes.withoutInfoFrame(SampleCatalog.named("untagged.mp3"))
        let whole = dir.appending("whole.mp3")
        try dir.write(part + part, to: whole)
        let reference = try attempt(whole)
        let damaged = dir.appending("damaged.mp3")
        try dir.write(part + [UInt8](repeating: 0, count: 10_000) + part, to: damaged)
        let result = try attempt(damaged)
        #expect(result.openError == nil)
        #expect(result.readError == nil)
        // Resync may lose the frame after the junk (its bit reservoir), not more.
        #expect(result.frames <= reference.frames && result.frames >= reference.frames - 2 * 1152)
    }

    @Test func junkBeyondTheBudgetMidFileIsADecoderError() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let part = try MP3Bytes.withoutInfoFrame(SampleCatalog.named("untagged.mp3"))
        let alone = dir.appending("alone.mp3")
        try dir.write(part, to: alone)
        let first = try attempt(alone)
        let damaged = dir.appending("damaged.mp3")
        try dir.write(part + [UInt8](repeating: 0, count: 2 << 20) + part, to: damaged)
        let result = try attempt(damaged)
        #expect(result.openError == nil)
        #expect(result.frames == first.frames, "the part before the junk, whole")
        let reason = try #require(result.readError)
        #expect(reason.hasPrefix("decoder error at 0:03: no audio"), "\(reason)")
    }

    @Test func seekIndexScansPastJunkBeyondTheBudget() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let part = try MP3Bytes.withoutInfoFrame(SampleCatalog.named("untagged.mp3"))
        let damaged = dir.appending("damaged.mp3")
        try dir.write(part + [UInt8](repeating: 0, count: 512 << 10) + part, to: damaged)
        let result = try bounded { () -> (Int?, Int) in
            let decoder = try MPG123Decoder(path: damaged)
            // The scan reads the whole file without audio: the junk budget does not apply.
            try decoder.seek(toFrame: 0)
            let indexed = decoder.frameCount
            // Into the second part, past the junk: the index says where it is.
            try decoder.seek(toFrame: 4 * 44100)
            return (indexed, try decodeAll(decoder).count / 2)
        }
        let (indexed, rest) = try #require(result)
        let frames = try #require(indexed)
        #expect(frames > 6 * 44100)
        #expect(rest == frames - 4 * 44100)
    }
}

/// What became of one file: the open's failure, or the frames decoded and how it ended.
struct DecodeAttempt: Sendable {
    var openError: String?
    var frameCount: Int?
    var frames = 0
    var readError: String?
}

/// Opens (with `open`, by default the MP3 decoder) and decodes `path` to the end on a
/// thread of its own; fails the test (instead of hanging it) when that takes longer
/// than `limit`.
func attempt(
    _ path: FilePath, limit: Duration = .seconds(60),
    open: @escaping @Sendable (FilePath) throws(DecoderError) -> any AudioDecoder = { try MPG123Decoder(path: $0) }
) throws -> DecodeAttempt {
    let result = try bounded(limit: limit) { () -> DecodeAttempt in
        var outcome = DecodeAttempt()
        let decoder: any AudioDecoder
        do throws(DecoderError) {
            decoder = try open(path)
        } catch {
            outcome.openError = error.reason
            return outcome
        }
        outcome.frameCount = decoder.frameCount
        var buffer = [Int32](repeating: 0, count: 4096)
        while true {
            do {
                let count = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
                if count == 0 { return outcome }
                outcome.frames += count / decoder.format.channels
            } catch {
                outcome.readError = (error as? DecoderError)?.reason ?? "\(error)"
                return outcome
            }
        }
    }
    return try #require(result, "\(path) did not return within \(limit)")
}

/// Runs `body` on a new thread; nil when it did not finish within `limit` (the thread is
/// left behind, blocked or busy: that is the failure being tested for).
func bounded<T: Sendable>(limit: Duration = .seconds(60), _ body: @escaping @Sendable () throws -> T) throws -> T? {
    let box = BoundedResult<T>()
    let done = DispatchSemaphore(value: 0)
    Thread {
        box.result = Result { try body() }
        done.signal()
    }.start()
    let (seconds, attoseconds) = limit.components
    let timeout = DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    guard done.wait(timeout: timeout) == .success else { return nil }
    return try box.result!.get()
}

private final class BoundedResult<T>: @unchecked Sendable {
    // Written before `done.signal()`, read only after `done.wait()` returned in time.
    var result: Result<T, any Error>?
}

/// Building MP3 files byte by byte.
enum MP3Bytes {
    /// An ID3v2.4 tag of `size` bytes in all: a header and padding.
    static func id3v2Tag(paddedTo size: Int) -> [UInt8] {
        let body = size - 10
        let syncsafe = (0..<4).reversed().map { UInt8((body >> (7 * $0)) & 0x7F) }
        return [0x49, 0x44, 0x33, 4, 0, 0] + syncsafe + [UInt8](repeating: 0, count: body)
    }

    /// The sample's bytes without its first frame, the Xing/LAME "Info" frame: without a
    /// length from it, libmpg123 reads on past the last frame into whatever follows.
    static func withoutInfoFrame(_ sample: SampleEntry) throws -> [UInt8] {
        let bytes = try TemporaryDirectory.read(sample.path)
        let length = try #require(frameLength(bytes), "\(sample) does not start with an MPEG-1 layer III frame")
        let body = bytes[4..<length]
        let isInfoFrame = body.indices.contains {
            body[$0...].starts(with: "Info".utf8) || body[$0...].starts(with: "Xing".utf8)
        }
        try #require(isInfoFrame, "\(sample)'s first frame is not an Info frame")
        return Array(bytes[length...])
    }

    /// The length of the MPEG-1 layer III frame at the start of `bytes`.
    private static func frameLength(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] & 0xFE == 0xFA else { return nil }
        let bitrates = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        let rates = [44100, 48000, 32000]
        let bitrateIndex = Int(bytes[2] >> 4)
        let rateIndex = Int(bytes[2] >> 2 & 0x3)
        guard bitrateIndex > 0, bitrateIndex < bitrates.count, rateIndex < rates.count else { return nil }
        let padding = Int(bytes[2] >> 1 & 0x1)
        return 144 * bitrates[bitrateIndex] * 1000 / rates[rateIndex] + padding
    }
}
