import CTagLib
import Foundation
import QPlayModel
import QPlayTestSupport
import SystemPackage
import Testing

/// The TagLib shim's kinds, called as `TagReader` calls it: the shim builds the parser of
/// the kind it is told, so a format with no row yet (WAV, AIFF — what an FFmpeg decoder
/// would add) is read by a row naming `.detectedByTagLib`, with no change to the shim.
@Suite struct TagLibKindTests {
    /// Reads `path` as the shim's kind `kind`: the sample rate, channels and length, or
    /// the shim's status.
    private func read(_ path: FilePath, as kind: TagLibKind) -> (status: qp_tag_status, rate: Int32, channels: Int32, ms: Int32) {
        var raw = qp_tag_info()
        var errorNumber: Int32 = 0
        var limits = qp_tag_budget(max_bytes: 64 << 20, max_cpu_nanoseconds: 5_000_000_000)
        var wanted = qp_tag_kind(rawValue: kind.rawValue)
        let status = path.withPlatformString { name in
            qp_tag_read(
                name, &limits, 64, { _, _, context in context!.load(as: qp_tag_kind.self) }, &wanted, &raw,
                &errorNumber)
        }
        defer { if status == QP_TAG_OK { qp_tag_info_free(&raw) } }
        return (status, raw.sample_rate, raw.channels, raw.duration_ms)
    }

    @Test(arguments: ["wav", "aiff"])
    func otherTypesTagLibKnowsAreReadByContent(type: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // Named .mp3: the shim must not let TagLib go by the name.
        let path = dir.appending("tone.mp3")
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/sox"),
            ["-n", "-r", "48000", "-c", "2", "-b", "16", "-t", type, path.string, "synth", "1.5", "sine", "600"])
        #expect(result.status == 0, "\(result.stderr)")
        let detected = read(path, as: .detectedByTagLib)
        #expect(detected.status == QP_TAG_OK && detected.rate == 48000 && detected.channels == 2, "\(detected)")
        #expect(detected.ms == 1500, "\(detected)")
        // Told FLAC, the shim reads FLAC and finds none.
        #expect(read(path, as: .flac).status == QP_TAG_INVALID)
    }

    /// Each of the table's formats read through its row's kind (FFmpeg's, which have no
    /// sample in the folder, made here; ADTS through the MP4 kind too).
    @Test func everyRowsKindReadsItsSample() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: 1)
        var files: [(FilePath, TagLibKind, String)] = []
        for format in AudioFileFormat.allCases {
            let path =
                format == .mp3
                ? SampleCatalog.named("untagged.mp3").path : SampleCatalog.formats.first { $0.format == format.rawValue }?.path
            if let path { files.append((path, format.row.tagLibKind, "\(format)")) }
        }
        for kind in GeneratedAudio.FFmpegKind.allCases {
            let path = try GeneratedAudio.encode(pcm, as: kind, to: "\(kind).\(kind.fileExtension)", in: dir)
            files.append((path, AudioFileFormat(rawValue: kind.wireName)!.row.tagLibKind, "\(kind)"))
        }
        for (path, kind, name) in files {
            let read = read(path, as: kind)
            #expect(read.status == QP_TAG_OK && read.rate == (name == "opus" ? 48000 : read.rate) && read.rate > 0, "\(name): \(read)")
            #expect(read.ms > 0, "\(name): \(read)")
            if name == "adts" {
                // Whole AAC frames, the encoder's delay and padding included.
                #expect(read.rate == 44100 && read.channels == 2 && abs(Int(read.ms) - 1000) <= 60, "\(name): \(read)")
            }
        }
    }
}
