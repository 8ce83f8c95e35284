import Foundation
import QPlayLibrary
import QPlayModel
import QPlayTestSupport
import SystemPackage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A library made by scripts/gen-library, with its BAD/ folder of broken inputs.
@Suite(.enabled(if: GeneratedLibrary.canGenerate, "needs python3 and lame"))
struct GeneratedLibraryTests {
    @Test func indexesEveryGoodFileAndReportsEveryBadOne() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let manifest = try GeneratedLibrary.generate(in: fixture.music, count: 300, seed: 11)
        let index = try fixture.openIndex()
        let progress = ProgressLog()
        let summary = try await fixture.scanner(index).scan { progress.append($0) }

        let asRoot = geteuid() == 0  // root reads a folder of mode 0 all the same
        let indexedBad = manifest.bad.filter(\.indexed)
        let extraWhenRoot = asRoot ? 1 : 0
        let expected = manifest.counts.tracks + manifest.extra_good.count + indexedBad.count + extraWhenRoot
        #expect(summary.added == expected)
        #expect(try index.statistics().tracks == expected)

        // Every generated track is there, with its title (file name when untagged).
        let all = try index.search(.all)
        let byPath = Dictionary(all.map { ($0.path.string, $0) }, uniquingKeysWith: { a, _ in a })
        for entry in try #require(manifest.tracks) {
            let track = try #require(byPath[entry.path], "\(entry.path) missing")
            #expect(track.title == entry.title)
            #expect(track.artist == entry.artist)
            #expect(track.album == entry.album)
            #expect(track.duration > 0.5 && track.duration < 2)
        }
        #expect(manifest.tracks?.filter { !$0.tagged }.count == manifest.counts.untagged)
        for extra in manifest.extra_good {
            #expect(byPath[extra.path]?.title == extra.title)
        }

        // Every bad input is reported with its reason; the ones that hold audio are indexed.
        let problems = Dictionary(summary.problems.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        for bad in manifest.bad {
            if bad.directory == true && asRoot {
                #expect(byPath[try #require(bad.readable_by_root)] != nil)
                continue
            }
            let problem = try #require(problems[bad.path], "\(bad.path) not reported: \(summary.problems)")
            #expect(problem.skipped == !bad.indexed, "\(problem)")
            if !bad.reason.isEmpty {
                #expect(problem.reason.contains(bad.reason), "\(problem)")
            }
            if let title = bad.title {
                #expect(byPath[bad.path]?.title == title, "\(bad.path)")
            }
        }
        let reported = Set(manifest.bad.filter { !(asRoot && $0.directory == true) }.map(\.path))
        #expect(Set(summary.problems.map(\.path)) == reported)
        #expect(summary.skipped == manifest.bad.filter { !$0.indexed && !(asRoot && $0.directory == true) }.count)

        // The cut-short file counts only the audio it still holds.
        let truncated = try #require(byPath["BAD/truncated.mp3"])
        #expect(truncated.duration > 0.3 && truncated.duration < 0.7)
        // The invalid UTF-8 name is stored byte-exact and opens again from the index.
        let latin1 = try #require(all.first { $0.path.string.hasPrefix("BAD/caf") })
        let bytes = latin1.path.withPlatformString { Array(UnsafeBufferPointer(start: $0, count: strlen($0))) }
        #expect(bytes.map { UInt8(bitPattern: $0) }.contains(0xE9))
        #expect(try TagReader.read(fixture.music.appending(latin1.path.components)).title == "Big Cover Art")

        // Search selectivity the bench relies on.
        #expect(try index.count(.titleContains(manifest.common_word)) == manifest.counts.common)
        #expect(try index.count(.titleContains(manifest.rare_word)) == manifest.counts.rare)

        // Progress: starts, counts up to the total, ends done.
        let reports = progress.reports
        #expect(reports.first?.seen == 0)
        #expect(reports.last?.done == true)
        #expect(reports.last?.seen == reports.last?.total)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.seen <= $1.seen })
    }

    @Test func aHugeTitleTagLosesNoTrackAfterReopening() async throws {
        // MPD drops most of its database when it reloads after indexing such a file.
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let manifest = try GeneratedLibrary.generate(in: fixture.music, count: 200, seed: 5)
        var indexed = 0
        do {
            let index = try fixture.openIndex()
            indexed = try await fixture.scanner(index).scan().added
        }
        let reopened = try fixture.openIndex()
        #expect(try reopened.statistics().tracks == indexed)
        #expect(indexed >= manifest.counts.tracks + 3)
        let huge = try reopened.tracks(paths: ["BAD/huge-tag.mp3"])
        #expect(huge.first??.title == String(repeating: "x", count: 1024))
        #expect(try reopened.search(.titleContains("xxx")).map(\.path) == ["BAD/huge-tag.mp3"])
        // And a rescan changes nothing.
        let again = try await fixture.scanner(reopened).scan()
        #expect(again.added == 0 && again.updated == 0 && again.removed == 0)
        #expect(try reopened.statistics().tracks == indexed)
    }
}

/// Collects progress reports from the scan's thread.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [ScanProgress] = []

    func append(_ progress: ScanProgress) {
        lock.lock()
        items.append(progress)
        lock.unlock()
    }

    var reports: [ScanProgress] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
