import Foundation
import QPlayTestSupport
import Testing

/// What `qplay status` shows while the daemon's output cannot be opened (README.md,
/// "What status says plays, plays").
@Suite("End to end: status while the output fails", .timeLimit(.minutes(2)))
struct StatusFormatOutputErrorEndToEndTests {
    /// An ALSA device that cannot open (named so that no machine has it): the queue
    /// plays on as far as the daemon goes, and status says it waits for the output,
    /// naming the output once.
    @Test func aFailingOutputIsNamedOnceAndNotShownAsPlaying() throws {
        try withDaemon(arguments: ["--output", "alsa:qplay-no-such-device"]) { daemon in
            try daemon.qplayOK("add", "love")
            try waitUntil("the output error shows") {
                ((try daemon.qplayJSON("status")["output"] as? [String: Any])?["error"] as? String) != nil
            }
            let output = try daemon.qplayJSON("status")["output"] as? [String: Any]
            #expect(output?["name"] as? String == "alsa:qplay-no-such-device")
            let error = output?["error"] as? String ?? ""
            #expect(error.hasPrefix("cannot open device"), "\(error)")
            let block = try daemon.qplayOK("status")
            #expect(block.hasPrefix("waiting for the output: "), "\(block)")
            #expect(block.contains("  output alsa:qplay-no-such-device: cannot open device"), "\(block)")
            #expect(block.components(separatedBy: "alsa:qplay-no-such-device").count == 2, "named once: \(block)")
            #expect(try daemon.qplayOK("status", "--format", "{icon}") == "⚠\n")
            // The log names it once too.
            #expect(daemon.log.contains("output alsa:qplay-no-such-device: cannot open device"), "\(daemon.log)")
            #expect(!daemon.log.contains("alsa:qplay-no-such-device: alsa:"), "\(daemon.log)")
        }
    }
}
