import Foundation
import QPlayLibrary
import QPlayModel
import QPlayTestSupport
import SystemPackage
import Testing

/// The iPod set `scripts/make-samples ipod` makes at run time (AAC, ALAC, an audiobook,
/// WAV, AIFF, WavPack, covers): every file it lists in its README is indexed with that
/// row's tags, format, rate, depth and exact length.
@Suite(.enabled(if: GeneratedLibrary.toolsInstalled(["python3", "sox", "ffmpeg", "wavpack"]), "needs python3, sox, ffmpeg and wavpack"))
struct IPodSampleSetTests {
    @Test func everyFileOfTheSetIsIndexedAsItsReadmeSays() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let set = fixture.music.appending("iPod")
        try GeneratedAudio.run(
            SampleCatalog.repositoryRoot.appending("scripts/make-samples").string, "ipod", set.string)
        let readme = try String(contentsOfFile: set.appending("README.md").string, encoding: .utf8)
        // | file | title | artist | album | format | rate | channels | bits | frames | tone Hz | notes |
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { row in
            row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
        #expect(rows.count == 9)
        let formats = Set(rows.map { $0[4] })
        #expect(formats == ["aac", "alac", "wav", "aiff", "wavpack"])

        let index = try fixture.openIndex()
        let summary = try await fixture.scanner(index).scan()
        #expect(summary.problems.isEmpty, "\(summary.problems)")
        let tracks = Dictionary(uniqueKeysWithValues: try index.search(.all).map { ($0.path.string, $0) })
        #expect(tracks.count == rows.count)
        for row in rows {
            let file = "iPod/" + row[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let track = try #require(tracks[file], "\(file) not indexed")
            #expect(track.title == row[1] && track.artist == row[2] && track.album == row[3], "\(file)")
            #expect(track.format.rawValue == row[4], "\(file)")
            let rate = try #require(Int(row[5]))
            #expect(track.sampleRate == rate, "\(file)")
            #expect(track.bitsPerSample == Int(row[7]), "\(file)")
            // Exact: the edit list's length through iTunSMPB for AAC, sample counts else.
            let frames = try #require(Int(row[8]))
            #expect(track.duration == Double(frames) / Double(rate), "\(file): \(track.duration)")
        }
        #expect(FileManager.default.fileExists(atPath: set.appending("Covers/Folder/cover.jpg").string))
    }
}
