import Foundation
import Testing

@testable import QPlayLibrary

/// The decisions a scan makes before reading anything: what to read, what is unchanged,
/// what was skipped before, what is gone.
@Suite struct ScanPlanTests {
    private func entry(_ path: String, size: Int64 = 100, time: Int64 = 1, special: String? = nil)
        -> (relative: [UInt8], entry: MusicFileWalker.Entry)
    {
        (Array(path.utf8), MusicFileWalker.Entry(
            pathBytes: Array("/music/\(path)".utf8), size: size, modificationTime: time, special: special))
    }

    private func skip(_ path: String, size: Int64 = 100, time: Int64 = 1) -> (Data, SkippedFile) {
        (Data(path.utf8), SkippedFile(pathBytes: Array(path.utf8), size: size, modificationTime: time, reason: "junk"))
    }

    private func paths(_ list: [[UInt8]]) -> [String] {
        list.map { String(decoding: $0, as: UTF8.self) }.sorted()
    }

    @Test func rememberedSkipsAreNotReadAgainUntilTheyChange() {
        let plan = ScanPlan(
            found: [
                entry("same.mp3"), entry("grown.mp3", size: 200), entry("touched.mp3", time: 2),
                entry("new.mp3"), entry("track.mp3"),
            ],
            known: [Data("track.mp3".utf8): KnownFile(id: 7, size: 100, modificationTime: 1)],
            remembered: Dictionary(uniqueKeysWithValues: [
                skip("same.mp3"), skip("grown.mp3"), skip("touched.mp3"), skip("deleted.mp3"),
            ]),
            prefix: [], protectedPrefixes: [])
        #expect(plan.skippedBefore == 1 && plan.unchanged == 1)
        #expect(paths(plan.jobs.map(\.relativePath)) == ["grown.mp3", "new.mp3", "touched.mp3"])
        #expect(plan.jobs.filter(\.wasSkipped).count == 2)
        #expect(paths(plan.forgotten) == ["deleted.mp3"])
        #expect(plan.vanished.isEmpty)
    }

    @Test func specialFilesAreNeverJobsAndTheirTracksGo() {
        let plan = ScanPlan(
            found: [entry("pipe.mp3", size: 0, special: "named pipe"), entry("was-a-track.mp3", special: "socket")],
            known: [Data("was-a-track.mp3".utf8): KnownFile(id: 3, size: 100, modificationTime: 1)],
            remembered: [:], prefix: [], protectedPrefixes: [])
        #expect(plan.jobs.isEmpty)
        #expect(plan.specialFiles.map(\.kind) == ["named pipe", "socket"])
        #expect(plan.specialFiles.map(\.knownID) == [nil, 3])
        // Once remembered and unchanged, a special file is only counted.
        let again = ScanPlan(
            found: [entry("pipe.mp3", size: 0, special: "named pipe")], known: [:],
            remembered: Dictionary(uniqueKeysWithValues: [skip("pipe.mp3", size: 0)]), prefix: [], protectedPrefixes: [])
        #expect(again.specialFiles.isEmpty && again.skippedBefore == 1)
    }

    @Test func onlyTheScannedFolderOutsideUnreadableOnesIsForgotten() {
        let plan = ScanPlan(
            found: [], known: [Data("Rock/a.mp3".utf8): KnownFile(id: 1, size: 1, modificationTime: 1)],
            remembered: Dictionary(uniqueKeysWithValues: [
                skip("Rock/gone.mp3"), skip("Rock/Locked/x.mp3"), skip("Jazz/other.mp3"),
            ]),
            prefix: Array("Rock/".utf8), protectedPrefixes: [Array("Rock/Locked".utf8)])
        #expect(paths(plan.forgotten) == ["Rock/gone.mp3"])
        #expect(plan.vanished == [1])
    }
}
