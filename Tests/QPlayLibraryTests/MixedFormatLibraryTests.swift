import Foundation
import QPlayLibrary
import QPlayModel
import QPlayTestSupport
import SystemPackage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A library made by scripts/gen-library of every row of the format table, with broken
/// files of each: every track indexed with its tags and its exact length.
@Suite(.enabled(if: GeneratedLibrary.canGenerateEveryFormat, "needs python3, lame, flac, oggenc, opusenc, ffmpeg and wavpack"))
struct MixedFormatLibraryTests {
    /// The formats whose index entry has a bit depth: the lossless ones decoded to PCM.
    static let withDepth: Set<AudioFileFormat> = [.flac, .alac, .wav, .aiff, .wavPack]

    @Test func everyFormatIsIndexedExactlyAndEveryBrokenFileSurvived() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let formats = AudioFileFormat.allCases.map(\.rawValue)
        let manifest = try GeneratedLibrary.generate(in: fixture.music, count: 240, seed: 3, formats: formats)
        let index = try fixture.openIndex()
        let summary = try await fixture.scanner(index).scan()

        let problems = Dictionary(summary.problems.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        let all = try index.search(.all)
        let byPath = Dictionary(all.map { ($0.path.string, $0) }, uniquingKeysWith: { a, _ in a })
        let entries = try #require(manifest.tracks)
        for format in formats {
            #expect(entries.contains { $0.format == format }, "no \(format) generated")
        }
        for entry in entries {
            let track = try #require(byPath[entry.path], "\(entry.path) missing: \(String(describing: problems[entry.path]))")
            #expect(track.title == entry.title, "\(entry.path)")
            #expect(track.artist == entry.artist, "\(entry.path)")
            #expect(track.album == entry.album, "\(entry.path)")
            #expect(track.format.rawValue == entry.format, "\(entry.path)")
            let seconds = try #require(entry.seconds)
            // Exact sample counts: FLAC's STREAMINFO, Ogg granules, WAV, AIFF and WavPack
            // headers, an AAC's iTunSMPB (its edit list's length) and an ALAC's whole
            // seconds; an MP3's comes from its LAME header, exact for what libmpg123 plays.
            #expect(track.duration == seconds, "\(entry.path): \(track.duration) ≠ \(seconds)")
            #expect(track.sampleRate == (track.format == .opus ? 48000 : track.sampleRate))
            #expect((track.bitsPerSample != nil) == Self.withDepth.contains(track.format), "\(entry.path)")
        }

        // Random bytes, text and empty files under every format's name: skipped, reported.
        let asRoot = geteuid() == 0
        for bad in manifest.bad where !(bad.directory == true && asRoot) {
            let problem = try #require(problems[bad.path], "\(bad.path) not reported")
            #expect(problem.skipped == !bad.indexed, "\(problem)")
            if !bad.reason.isEmpty { #expect(problem.reason.contains(bad.reason), "\(problem)") }
        }
        for ext in ["flac", "ogg", "opus", "m4a", "wav", "aiff", "wv"] {
            #expect(problems["BAD/random.\(ext)"]?.skipped == true, "BAD/random.\(ext)")
            #expect(problems["BAD/text.\(ext)"]?.skipped == true, "BAD/text.\(ext)")
        }
        // Cut-short copies, two of each format but MP3: indexed no longer than the
        // whole, or skipped with a reason.
        let damaged = try #require(manifest.damaged)
        #expect(damaged.count == 2 * (formats.count - 1))
        for cut in damaged {
            if let track = byPath[cut.path] {
                #expect(track.format.rawValue == cut.format && track.duration <= cut.max_seconds, "\(cut.path)")
            } else {
                #expect(problems[cut.path]?.skipped == true, "\(cut.path) neither indexed nor reported")
            }
        }
        let indexedBad = manifest.bad.filter(\.indexed).count + (asRoot ? 1 : 0)
        let indexedDamaged = damaged.filter { byPath[$0.path] != nil }.count
        #expect(
            all.count == entries.count + manifest.extra_good.count + indexedBad + indexedDamaged)
    }
}

extension GeneratedLibrary {
    /// Every row of the format table: gen-library's tools for all of them.
    static var canGenerateEveryFormat: Bool {
        toolsInstalled(["python3", "lame", "flac", "oggenc", "opusenc", "ffmpeg", "wavpack"])
    }

    /// Whether every one of these programs is on the PATH.
    static func toolsInstalled(_ tools: [String]) -> Bool {
        tools.allSatisfy { tool in
            (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
                .contains { access("\($0)/\(tool)", X_OK) == 0 }
        }
    }
}
