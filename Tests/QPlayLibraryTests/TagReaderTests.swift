import QPlayLibrary
import QPlayTestSupport
import SystemPackage
import Testing
import Synchronization
import Foundation

#if canImport(Glibc)
import Glibc
#endif

@Suite struct TagReaderTests {
    @Test(arguments: SampleCatalog.all)
    func readsEachSampleAsListed(_ sample: SampleEntry) throws {
        let tags = try TagReader.read(sample.path)
        #expect(tags.title == sample.title)
        #expect(tags.artist == sample.artist)
        #expect(tags.album == sample.album)
        #expect(tags.albumArtist == sample.albumArtist)
        #expect(tags.genre == sample.genre)
        #expect(tags.track == sample.track)
        #expect(tags.trackTotal == sample.trackTotal)
        #expect(tags.disc == sample.disc)
        #expect(tags.discTotal == sample.discTotal)
        #expect(tags.year == sample.year)
        #expect(tags.sampleRate == sample.sampleRate)
        #expect(tags.channels == sample.channels)
        #expect(tags.replayGain.trackGain == sample.trackGain)
        #expect(tags.replayGain.trackPeak == sample.trackPeak)
        #expect(tags.replayGain.albumGain == sample.albumGain)
        #expect(tags.replayGain.albumPeak == sample.albumPeak)
        // TagLib's length includes the encoder delay and padding (about 30 ms here).
        #expect(abs(tags.durationMilliseconds - sample.seconds * 1000) <= 60)
        if sample.encoding.hasPrefix("CBR ") {
            let kbps = Int(sample.encoding.dropFirst(4))!
            #expect(abs(tags.bitrateKbps - kbps) <= 2)
        } else {
            #expect(tags.bitrateKbps > 0)
        }
    }

    @Test func untaggedFileHasAudioPropertiesAndNoTags() throws {
        let tags = try TagReader.read(SampleCatalog.named("untagged.mp3").path)
        #expect(tags.title == nil && tags.artist == nil && tags.album == nil && tags.track == nil)
        #expect(tags.sampleRate == 44100 && tags.channels == 2)
    }

    @Test func badFilesGiveCleanErrors() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(throws: TagReadError.unreadable(errno: ENOENT)) {
            try TagReader.read(dir.appending("missing.mp3"))
        }
        let notes = dir.appending("notes.txt")
        try dir.write(Array("hello".utf8), to: notes)
        #expect(throws: TagReadError.unsupportedFormat) { try TagReader.read(notes) }

        let empty = dir.appending("empty.mp3")
        try dir.write([], to: empty)
        let garbage = dir.appending("garbage.mp3")
        try dir.write(pseudoRandomBytes(count: 100_000, seed: 42), to: garbage)
        let text = dir.appending("text.mp3")
        try dir.write(Array(String(repeating: "just text\n", count: 1000).utf8), to: text)
        for path in [empty, garbage, text] {
            let error = #expect(throws: TagReadError.self, "\(path)") { try TagReader.read(path) }
            #expect(error == .invalidFile || error == .notAudio, "\(path): \(String(describing: error))")
        }
    }

    /// A FIFO would block the reading thread, zeros would be searched to their end for
    /// a frame: both fail at once (bounded by a thread of its own and a generous limit).
    @Test func fifosAndFilesOfZerosAreRefusedWithoutBlocking() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let fifo = dir.appending("fifo.mp3")
        #expect(fifo.withPlatformString { mkfifo($0, 0o600) } == 0)
        let sparse = dir.appending("sparse.mp3")
        try dir.write([], to: sparse)
        #expect(truncate(sparse.string, off_t(2) << 30) == 0)
        let outcomes = Mutex<[String: String]>([:])
        let done = DispatchSemaphore(value: 0)
        Thread {
            for path in [fifo, sparse] {
                do {
                    _ = try TagReader.read(path)
                    outcomes.withLock { $0[path.lastComponent!.string] = "read" }
                } catch {
                    outcomes.withLock { $0[path.lastComponent!.string] = "\(error)" }
                }
            }
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 60) == .success, "reading did not return within 60 s")
        let results = outcomes.withLock { $0 }
        #expect(results["fifo.mp3"] != nil && results["fifo.mp3"] != "read", "\(results)")
        #expect(results["sparse.mp3"] == "\(TagReadError.notAudio)", "\(results)")
    }

    @Test func hugeTitleTagIsReadWhole() throws {
        // MPD drops most of its database after indexing a file like this one.
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let sample = SampleCatalog.named("untagged.mp3")
        let title = String(repeating: "x", count: 1 << 20)
        let path = dir.appending("huge.mp3")
        try dir.write(id3v2Tag(title: title) + TemporaryDirectory.read(sample.path), to: path)
        let tags = try TagReader.read(path)
        #expect(tags.title?.count == title.count)
        #expect(tags.sampleRate == 44100)
    }

    @Test func fileNameThatIsNotUTF8() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let sample = SampleCatalog.named("Chloé Dubois/Café Crème.mp3")
        let odd = dir.appending(rawName: [0x43, 0x61, 0x66, 0xE9, 0x2E, 0x6D, 0x70, 0x33])  // Latin-1 "Café.mp3"
        try dir.copy(sample.path, to: odd)
        #expect(try TagReader.read(odd).title == "Café Crème")
    }
}

/// An ID3v2.3 tag with one TIT2 frame in ISO-8859-1.
func id3v2Tag(title: String) -> [UInt8] {
    let text = [UInt8(0)] + Array(title.utf8)
    func bigEndian(_ n: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((n >> $0) & 0xFF) } }
    func synchsafe(_ n: Int) -> [UInt8] { [21, 14, 7, 0].map { UInt8((n >> $0) & 0x7F) } }
    let frame = Array("TIT2".utf8) + bigEndian(text.count) + [0, 0] + text
    return Array("ID3".utf8) + [3, 0, 0] + synchsafe(frame.count) + frame
}
