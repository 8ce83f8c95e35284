import Foundation
import GRDB
import QPlayModel
import QPlayTestSupport
import SystemPackage
import Testing

@testable import QPlayLibrary

/// FFmpeg's formats in the index: a scan reads them by content with their format and
/// depth, and a skip remembered before they were played is read again after the upgrade.
@Suite struct FFmpegFormatIndexTests {
    @Test func aScanIndexesEachFormatByContent() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let pcm = try GeneratedAudio.pcm(in: fixture.directory, seconds: 0.5, synth: ["sine", "440"], bits: 24)
        var expected: [String: (String, Int?)] = [:]
        for kind in GeneratedAudio.FFmpegKind.allCases {
            let source = kind == .aac || kind == .adts ? try GeneratedAudio.pcm(in: fixture.directory, seconds: 0.5) : pcm
            let made = try GeneratedAudio.encode(source, as: kind, to: "\(kind).\(kind.fileExtension)", in: fixture.directory)
            // Under the name of another format: the content decides.
            let name = "\(kind).\(kind == .wav ? "m4a" : "wav")"
            try fixture.directory.copy(made, to: fixture.music.appending(name))
            expected[name] = (kind.wireName, kind.isLossless ? (kind == .floatWAV ? 32 : 24) : nil)
        }
        let index = try fixture.openIndex()
        let summary = try await fixture.scanner(index).scan()
        let tracks = try index.search(.all)
        let indexed = Dictionary(uniqueKeysWithValues: tracks.map { ($0.path.string, $0) })
        for (name, (format, bits)) in expected {
            let track = try #require(indexed[name], "\(name) not indexed: \(summary.problems)")
            #expect(track.format.rawValue == format, "\(name)")
            #expect(track.bitsPerSample == bits, "\(name)")
            #expect(track.sampleRate == 44100 && track.channels == 2, "\(name)")
        }
    }

    /// Mono AAC is indexed as one channel: ffmpeg's MP4 muxer writes 2 in the sample
    /// entry's channel field whatever the stream, and the count is the AAC config's.
    @Test func monoAACHasOneChannel() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let mono = try GeneratedAudio.pcm(in: fixture.directory, seconds: 0.5, channels: 1)
        for kind in [GeneratedAudio.FFmpegKind.aac, .adts] {
            let made = try GeneratedAudio.encode(mono, as: kind, to: "mono.\(kind.fileExtension)", in: fixture.directory)
            try fixture.directory.copy(made, to: fixture.music.appending("mono.\(kind.fileExtension)"))
        }
        let stereo = try GeneratedAudio.pcm(in: fixture.directory, seconds: 0.5)
        let made = try GeneratedAudio.encode(stereo, as: .aac, to: "stereo.m4a", in: fixture.directory)
        try fixture.directory.copy(made, to: fixture.music.appending("stereo.m4a"))
        let index = try fixture.openIndex()
        let summary = try await fixture.scanner(index).scan()
        let channels = Dictionary(uniqueKeysWithValues: try index.search(.all).tracks.map { ($0.path.string, $0.channels) })
        #expect(channels == ["mono.m4a": 1, "mono.aac": 1, "stereo.m4a": 2], "\(summary.problems)")
    }

    /// A WAV named .mp3 an older scan skipped as no format's is read again once after
    /// the upgrade, and indexed as WAV.
    @Test func aSkipRememberedBeforeFFmpegsFormatsIsReadAgain() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let pcm = try GeneratedAudio.pcm(in: fixture.directory, seconds: 0.5)
        let path = fixture.music.appending("x.mp3")
        try GeneratedAudio.writeWAV(pcm, to: path, in: fixture.directory)
        var info = stat()
        #expect(stat(path.string, &info) == 0)
        let size = Int64(info.st_size)
        let mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        do {
            let queue = try DatabaseQueue(path: fixture.databasePath.string)
            try LibrarySchema.migrator.migrate(queue, upTo: "v5: skipped files read again by content")
            try await queue.write { db in
                try db.execute(
                    sql: "INSERT INTO skipped_file (path, file_size, mtime, reason) VALUES (?, ?, ?, ?)",
                    arguments: [Data("x.mp3".utf8), size, mtime, "not a file qplay plays (MP3, FLAC, Ogg Vorbis, Opus)"])
            }
        }
        let index = try fixture.openIndex()
        #expect(try index.skippedFiles().isEmpty)
        let summary = try await fixture.scanner(index).scan()
        #expect(summary.added == 1 && summary.skipped == 0 && summary.skippedBefore == 0, "\(summary.problems)")
        let found = try index.search(.all).first
        #expect(found?.format == .wav, "\(String(describing: found))")
    }
}
