import Foundation
import QPlayLibrary
import QPlayTestSupport
import SystemPackage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Files that would make TagLib read for minutes or block a thread: each is skipped
/// within the read budget (or unopened), with a reason, once; rescans remember it.
@Suite(.timeLimit(.minutes(2))) struct HostileFileScanTests {
    private static let gigabytes2 = off_t(2) << 30

    /// A sparse file: `prefix` then zeros up to `size`, taking no disk space.
    private func sparseFile(_ fixture: LibraryFixture, _ name: String, prefix: [UInt8], size: off_t) throws -> FilePath {
        let path = fixture.music.appending(name)
        try fixture.directory.write(prefix, to: path)
        #expect(truncate(path.string, size) == 0)
        return path
    }

    @Test func aSparseFileOfZerosIsSkippedOnceAndRememberedUntilItChanges() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        try fixture.directory.copy(SampleCatalog.named("untagged.mp3").path, to: fixture.music.appending("real.mp3"))
        let big = try sparseFile(fixture, "big.mp3", prefix: [], size: Self.gigabytes2)
        let index = try fixture.openIndex()
        let scanner = fixture.scanner(index)

        let first = try await scanner.scan()
        #expect(first.added == 1 && first.skipped == 1 && first.skippedBefore == 0)
        #expect(first.problems.map(\.path) == ["big.mp3"])
        #expect(first.problems.first?.reason == "no audio stream found")
        let remembered = try index.skippedFiles()
        #expect(remembered.map(\.path) == ["big.mp3"])
        #expect(remembered.first?.size == Int64(Self.gigabytes2))
        #expect(remembered.first?.reason == "no audio stream found")

        // Not read again, not reported again, still counted.
        let again = try await scanner.scan()
        #expect(again.skipped == 1 && again.skippedBefore == 1 && again.unchanged == 1)
        #expect(again.problems.isEmpty, "\(again.problems)")

        // Changed into a real file: read again, indexed, no longer remembered.
        #expect(unlink(big.string) == 0)
        try fixture.directory.copy(SampleCatalog.named("untagged.mp3").path, to: big)
        let changed = try await scanner.scan()
        #expect(changed.added == 1 && changed.skipped == 0, "\(changed)")
        #expect(try index.skippedFiles().isEmpty)
        #expect(try index.tracks(paths: ["big.mp3"]).compactMap { $0 }.count == 1)
    }

    /// Junk, then 2 GB of zeros: the zero check passes it on, and TagLib would search
    /// the zeros to their end for a frame. The budget stops it.
    @Test func junkFollowedByZerosStopsOnTheBudget() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let path = try sparseFile(
            fixture, "junk-then-zeros.mp3", prefix: pseudoRandomBytes(count: 4096, seed: 7), size: Self.gigabytes2)

        let (result, bytesRead) = TagReader.readMetered(path)
        guard case .failure(let error) = result, case .gaveUp = error else {
            Issue.record("expected to give up, got \(result)")
            return
        }
        #expect(bytesRead <= TagReadBudget.standard.bytes, "read \(bytesRead) bytes")
        #expect(error.description.hasPrefix("gave up after"), "\(error)")

        let index = try fixture.openIndex()
        let summary = try await fixture.scanner(index).scan()
        #expect(summary.skipped == 1 && summary.added == 0)
        #expect(summary.problems.first?.reason.hasPrefix("gave up after") == true, "\(summary.problems)")
        #expect(try index.skippedFiles().map(\.path) == ["junk-then-zeros.mp3"])
        let again = try await fixture.scanner(index).scan()
        #expect(again.skipped == 1 && again.skippedBefore == 1 && again.problems.isEmpty)
    }

    @Test func aFileOf64MBOfJunkIsSkippedWithinTheBudget() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let path = fixture.music.appending("junk.mp3")
        // 64 copies of 1 MB of junk: as hostile as 64 MB of fresh junk, and quick to make.
        let block = pseudoRandomBytes(count: 1 << 20, seed: 2024)
        var junk: [UInt8] = []
        junk.reserveCapacity(64 << 20)
        for _ in 0..<64 { junk.append(contentsOf: block) }
        try fixture.directory.write(junk, to: path)

        // The byte budget alone: TagLib is stopped at its limit, not at the file's end.
        let byteBudget = TagReadBudget(bytes: 1 << 20, cpuTime: .seconds(600))
        let (bytesResult, bytesRead) = TagReader.readMetered(path, budget: byteBudget)
        guard case .failure(.gaveUp(let reported, _, let outOfTimeFirst)) = bytesResult else {
            Issue.record("expected to give up, got \(bytesResult)")
            return
        }
        #expect(!outOfTimeFirst && reported == bytesRead && bytesRead <= 1 << 20, "read \(bytesRead) bytes")
        #expect(String(describing: bytesResult).contains("gave up after reading"))
        // The time budget alone.
        let timeBudget = TagReadBudget(bytes: 1 << 40, cpuTime: .milliseconds(1))
        let (timeResult, _) = TagReader.readMetered(path, budget: timeBudget)
        guard case .failure(.gaveUp(_, _, let outOfTime)) = timeResult else {
            Issue.record("expected to give up, got \(timeResult)")
            return
        }
        #expect(outOfTime)

        let index = try fixture.openIndex()
        let summary = try await fixture.scanner(index).scan()
        #expect(summary.skipped == 1 && summary.added == 0, "\(summary)")
        #expect(try index.skippedFiles().map(\.path) == ["junk.mp3"])
        let again = try await fixture.scanner(index).scan()
        #expect(again.skipped == 1 && again.skippedBefore == 1 && again.problems.isEmpty)
    }

    /// Opening a FIFO blocks, reading /dev/zero never ends: both are counted and skipped
    /// without being opened (the time limit of the suite catches a hang).
    @Test func fifosAndDeviceLinksAreSkippedUnopenedAndToldOnce() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        try fixture.directory.copy(SampleCatalog.named("untagged.mp3").path, to: fixture.music.appending("real.mp3"))
        #expect(fixture.music.appending("pipe.mp3").withPlatformString { mkfifo($0, 0o600) } == 0)
        #expect(symlink("/dev/zero", fixture.music.appending("zero.mp3").string) == 0)
        #expect(symlink("/dev/null", fixture.music.appending("not-music").string) == 0)
        let index = try fixture.openIndex()

        let first = try await fixture.scanner(index).scan()
        #expect(first.added == 1 && first.skipped == 2, "\(first)")
        #expect(first.problems.map(\.description) == [
            "skipped pipe.mp3: not a regular file (named pipe)",
            "skipped zero.mp3: not a regular file (character device)",
        ])
        let again = try await fixture.scanner(index).scan()
        #expect(again.skipped == 2 && again.skippedBefore == 2 && again.problems.isEmpty, "\(again)")

        // Gone: forgotten.
        #expect(unlink(fixture.music.appending("pipe.mp3").string) == 0)
        let after = try await fixture.scanner(index).scan()
        #expect(after.skipped == 1)
        #expect(try index.skippedFiles().map(\.path) == ["zero.mp3"])
    }

    /// A file that cannot be opened is not remembered: fixing its permissions changes
    /// neither its size nor its mtime, so it must be tried again.
    @Test(.enabled(if: geteuid() != 0, "root opens files of mode 0"))
    func anUnreadableFileIsTriedAgainOnEveryScan() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let path = fixture.music.appending("locked.mp3")
        try fixture.directory.copy(SampleCatalog.named("untagged.mp3").path, to: path)
        #expect(chmod(path.string, 0) == 0)
        let index = try fixture.openIndex()
        let first = try await fixture.scanner(index).scan()
        #expect(first.skipped == 1 && first.problems.count == 1)
        #expect(try index.skippedFiles().isEmpty)
        #expect(chmod(path.string, 0o644) == 0)
        let fixed = try await fixture.scanner(index).scan()
        #expect(fixed.added == 1 && fixed.skipped == 0)
    }

    /// Music is opened read-only: a scan gives folder watchers no IN_CLOSE_WRITE (TagLib's
    /// own FileRef(path) opens "rb+" and gave one per file read).
    @Test func scanningOpensMusicReadOnly() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let names = ["a.mp3", "b.mp3", "c.mp3"]
        for name in names {
            try fixture.directory.copy(SampleCatalog.named("untagged.mp3").path, to: fixture.music.appending(name))
        }
        let watcher = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        #expect(watcher >= 0)
        defer { close(watcher) }
        #expect(inotify_add_watch(watcher, fixture.music.string, UInt32(IN_CLOSE_WRITE | IN_CLOSE_NOWRITE)) >= 0)

        let summary = try await fixture.scanner(fixture.openIndex()).scan()
        #expect(summary.added == names.count)
        var closedAfterWriting: Set<String> = []
        var closedAfterReading: Set<String> = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(watcher, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            while offset < count {
                let (mask, nameLength) = buffer.withUnsafeBytes { raw in
                    (raw.load(fromByteOffset: offset + 4, as: UInt32.self), Int(raw.load(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameBytes = buffer[(offset + 16)..<(offset + 16 + nameLength)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if mask & UInt32(IN_CLOSE_WRITE) != 0 { closedAfterWriting.insert(name) }
                if mask & UInt32(IN_CLOSE_NOWRITE) != 0 { closedAfterReading.insert(name) }
                offset += 16 + nameLength
            }
        }
        #expect(closedAfterReading.isSuperset(of: names), "\(closedAfterReading)")  // they were opened
        #expect(closedAfterWriting.isEmpty, "opened for writing: \(closedAfterWriting)")
    }
}
