import Foundation
import QPlayTestSupport
import Testing

/// Every line-based frontend holds `max_connections` the same way: one more connection
/// gets a refusal line naming the cap in place of the greeting, is closed, and the run
/// of refusals is logged — on qplay's socket as on MPD's.
@Suite("Listeners refuse past max_connections alike", .serialized, .timeLimit(.minutes(2)))
struct ListenerCapTests {
    @Test func mpdRefusesWithALineAndLogsLikeTheJSONSocket() throws {
        let mpd = try MPDDaemon(config: "max_connections = 2")
        defer { mpd.stop() }
        var first: MPDRawClient? = try mpd.client()
        let second = try mpd.client()
        #expect(try first?.command("ping") == ["OK"])
        #expect(try second.command("ping") == ["OK"])

        let refused = try LineSocketClient(host: "127.0.0.1", port: mpd.port)
        #expect(try refused.readLine() == "ACK [52@0] {} too many connections (max_connections = 2); try again later")
        #expect(refused.isClosedByServer(within: 5))
        try waitUntil("the refusal is logged") {
            mpd.daemon.log.contains("2 connections open (max_connections); refusing more until some close")
        }

        // The JSON socket's own refusal, for comparison: the same words in its format.
        let json = try (0..<2).map { _ in try mpd.daemon.client() }
        let refusedJSON = try LineSocketClient(path: mpd.daemon.socketPath)
        let line = try refusedJSON.readLine()
        #expect(line.contains("too many connections (max_connections = 2); try again later"), "\(line)")
        #expect(refusedJSON.isClosedByServer(within: 5))
        _ = json

        // A place freed is taken again, and the log says how many were refused.
        first = nil  // closes it
        try waitUntil("a new MPD client is greeted") {
            (try? MPDRawClient(port: mpd.port).command("ping")) == ["OK"]
        }
        #expect(mpd.daemon.log.contains("accepting connections again after refusing"))
    }
}
