import Foundation
import QPlayTestSupport
import Testing

/// A real qplayd builds its search table by itself after start-up and after a scan that
/// changed the library, before any search asks for it (told by its log line).
@Suite struct SearchTableReadyEndToEndTests {
    func readyLines(_ daemon: DaemonProcess) -> [Substring] {
        daemon.log.split(separator: "\n").filter { $0.contains("search table ready: ") }
    }

    @Test func theTableIsReadyAfterStartUpWithoutASearch() throws {
        // The first start indexes the samples: the scan's end builds the table.
        try withDaemon { daemon in
            try waitUntil("the table built after the start-up scan") { !readyLines(daemon).isEmpty }
            daemon.stop()

            // Restarted without a scan, nothing but start-up can build it.
            let before = readyLines(daemon).count
            let scansBefore = daemon.log.components(separatedBy: "scanning ").count
            let config = try daemon.writeConfig("scan_on_start = false\n")
            try daemon.start(["--config", config])
            try waitUntil("the table built after the restart") { readyLines(daemon).count > before }
            let line = try #require(readyLines(daemon).last)
            #expect(daemon.log.components(separatedBy: "scanning ").count == scansBefore, "a scan ran after the restart")

            let client = try daemon.client()
            let response = try client.request(
                "search", ["where": [["property": "title", "op": "contains", "value": "love"]]])
            let tracks = (response["result"] as? [String: Any])?["tracks"] as? [[String: Any]] ?? []
            #expect(Set(tracks.compactMap { $0["title"] as? String }) == ["Love Song", "Endless Love", "Love Theme"], "\(response)")
            // Its count is the whole library's, as a search for everything tells.
            let all = try client.request("search", ["where": [Any]()])
            let count = ((all["result"] as? [String: Any])?["tracks"] as? [[String: Any]])?.count ?? -1
            #expect(line.contains("search table ready: \(count) tracks"), "\(line)")
        }
    }
}
