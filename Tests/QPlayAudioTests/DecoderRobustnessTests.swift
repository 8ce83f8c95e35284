import Foundation
import QPlayAudio
import QPlayTestSupport
import SystemPackage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Whatever stands where a music file should, opening and decoding it ends soon, with a
/// reason a person reads: nothing blocks (a FIFO, a device) and nothing is searched to
/// its end (zeros, text). Reasons and frame counts are asserted, never wall time; the
/// opens run on a thread of their own with a generous limit, so a regression fails the
/// test instead of hanging the suite.
@Suite struct DecoderRobustnessTests {
    @Test func thingsThatAreNotRegularFilesFailAtOnce() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let fifo = dir.appending("fifo.mp3")
        #expect(fifo.withPlatformString { mkfifo($0, 0o600) } == 0)
        let device = dir.appending("zero.mp3")
        #expect(device.withPlatformString { symlink("/dev/zero", $0) } == 0)
        let folder = dir.appending("folder.mp3")
        #expect(folder.withPlatformString { mkdir($0, 0o700) } == 0)
        for path in [fifo, device, folder] {
            #expect(try openReason(path) == "not a regular file", "\(path)")
        }
        #expect(try openReason(dir.appending("missing.mp3")) == "file not found")
        let empty = dir.appending("empty.mp3")
        try dir.write([], to: empty)
        #expect(try openReason(empty) == "empty file")
    }

    @Test func zerosAndTextHoldNoMPEGAudio() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let text = dir.appending("text.mp3")
        try dir.write(Array(String(repeating: "not audio at all\n", count: 2000).utf8), to: text)
        let zeros = dir.appending("zeros.mp3")
        try dir.write([UInt8](repeating: 0, count: 2 << 20), to: zeros)
        let sparse = dir.appending("sparse.mp3")
        try dir.write([], to: sparse)
        #expect(truncate(sparse.string, off_t(2) << 30) == 0)
        for path in [text, zeros, sparse] {
            let started = Date()
            let reason = try openReason(path)
            #expect(reason?.hasPrefix("no MPEG audio") == true, "\(path.lastComponent!): \(reason ?? "opened")")
            print("\(path.lastComponent!): \(reason ?? "opened") after \(String(format: "%.3f", Date().timeIntervalSince(started))) s")
        }
    }

    @Test func aLargeTagInFrontIsNoJunk() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let sample = SampleCatalog.named("untagged.mp3")
        // An ID3v2.4 tag of 1 MB, all padding: larger than the junk budget.
        let body = 1 << 20
        let size = (0..<4).map { UInt8((body >> (7 * (3 - $0))) & 0x7f) }
        let tag: [UInt8] = [0x49, 0x44, 0x33, 4, 0, 0] + size + [UInt8](repeating: 0, count: body)
        let tagged = dir.appending("tagged.mp3")
        try dir.write(tag + TemporaryDirectory.read(sample.path), to: tagged)
        let decoder = try MPG123Decoder(path: tagged)
        #expect(try decodeAll(decoder).count == sample.frames * sample.channels)
    }

    @Test func junkBeyondTheBudgetEndsDecodingWithItsPosition() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let morning = try TemporaryDirectory.read(SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3").path)
        let damaged = dir.appending("damaged.mp3")
        // 2 MB of zeros from the middle on, then the rest of the file.
        let middle = morning.count / 2
        try dir.write(
            Array(morning[..<middle]) + [UInt8](repeating: 0, count: 2 << 20) + morning[middle...], to: damaged)
        let decoder = try MPG123Decoder(path: damaged)
        var decoded = 0
        var reason: String?
        var buffer = [Int16](repeating: 0, count: 4096)
        do {
            while true {
                let count = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
                if count == 0 { break }
                decoded += count
            }
        } catch let error as DecoderError {
            reason = error.reason
        }
        #expect(reason?.hasPrefix("decoder error at 0:0") == true, "\(reason ?? "no error")")
        #expect(reason?.hasSuffix("no audio in 256 KB") == true, "\(reason ?? "no error")")
        // About the first half played (4 s at 44.1 kHz stereo).
        #expect(decoded > 44100 * 2 * 3 / 2 && decoded < 44100 * 2 * 5 / 2, "\(decoded) samples")
    }

    @Test func shortJunkInTheMiddleIsSkipped() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let sample = SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3")
        let morning = try TemporaryDirectory.read(sample.path)
        let middle = morning.count / 2
        let damaged = dir.appending("damaged.mp3")
        try dir.write(Array(morning[..<middle]) + [UInt8](repeating: 0, count: 10_000) + morning[middle...], to: damaged)
        let samples = try decodeAll(try MPG123Decoder(path: damaged))
        #expect(samples.count >= sample.frames * sample.channels * 9 / 10, "\(samples.count) samples")
    }

    /// The reason opening `path` failed (nil: it opened), from a thread of its own.
    private func openReason(_ path: FilePath) throws -> String? {
        let outcome = OpenOutcome()
        let done = DispatchSemaphore(value: 0)
        Thread {
            do {
                _ = try MPG123Decoder(path: path)
                outcome.set(nil)
            } catch let error as DecoderError {
                outcome.set(error.reason)
            } catch {
                outcome.set("\(error)")
            }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + 60) == .success else {
            throw LineSocketClient.Failure(description: "opening \(path) did not return within 60 s")
        }
        return outcome.reason
    }
}

private final class OpenOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?

    func set(_ reason: String?) {
        lock.lock()
        value = reason
        lock.unlock()
    }

    var reason: String? {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
