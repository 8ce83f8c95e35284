import Foundation
import QPlayTestSupport
import Testing

/// Every committed fuzz input — the seed corpora and the inputs of crashes found and
/// fixed — replayed through the fuzz targets' own checks, built normally (no
/// sanitizers): a regression that brings a crash back fails here, not only under
/// scripts/fuzz.
@Suite struct FuzzCorpusReplayTests {
    static let targets = [
        "request-decoder", "line-framer", "command-parsing", "status-format", "mpd-line", "icy", "stream-playlist",
        "config", "taglib", "mpg123", "flac", "ogg", "ffmpeg", "picture", "web-head", "web-socket",
    ]
    static let fuzzFolder = SampleCatalog.repositoryRoot.appending("Fuzz").string

    @Test(arguments: targets)
    func replaysCommittedInputs(target: String) throws {
        let folders = ["corpus", "crashes"].map { "\(Self.fuzzFolder)/\($0)/\(target)" }
            .filter { FileManager.default.fileExists(atPath: $0) }
        let expected = try folders.reduce(0) { count, folder in
            try count + FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.count
        }
        #expect(expected > 0, "no committed inputs for \(target)")
        let result = try runProcess(BuiltProducts.url("qplay-fuzz-\(target)"), folders)
        #expect(result.status == 0, "\(target): \(result.stderr)")
        #expect(result.stdout.contains("replayed \(expected) inputs"), "\(target): \(result.stdout)")
    }

    /// The replay is the real check: an input breaking a property fails the run.
    @Test func aBrokenPropertyFailsTheReplay() throws {
        // A line framer input whose model check cannot hold is hard to make by hand;
        // an unreadable path is the replay's own failure.
        let result = try runProcess(BuiltProducts.url("qplay-fuzz-line-framer"), ["/nonexistent/input"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("cannot read /nonexistent/input"))
    }
}
