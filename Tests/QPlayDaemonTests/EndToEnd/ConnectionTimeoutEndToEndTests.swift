import Foundation
import QPlayTestSupport
import Testing

/// Connections that send nothing are closed after `connection_timeout` on every line
/// frontend, sooner before the MPD password, so silence cannot hold the connection cap;
/// connections that wait by design — an MPD client in `idle`, a JSON client subscribed
/// to events — stay as long as they like.
@Suite("End to end: silent connections time out", .timeLimit(.minutes(3)))
struct ConnectionTimeoutEndToEndTests {
    static let config = "connection_timeout = 2\n"

    @Test func aSilentJSONClientIsClosedAndASubscriberStays() throws {
        try withDaemon(config: Self.config) { daemon in
            let silent = try daemon.client()
            let subscriber = try daemon.client()
            #expect(try subscriber.request("subscribe", ["events": ["player"]])["ok"] as? Bool == true)
            let talking = try daemon.client()
            for _ in 0..<6 {
                #expect(try talking.request("ping")["ok"] as? Bool == true)
                Thread.sleep(forTimeInterval: 1)
            }
            // Six seconds of silence against a two-second timeout.
            #expect(silent.isClosedByServer(within: 1), "the silent client is disconnected")
            #expect(try subscriber.request("ping")["ok"] as? Bool == true, "the subscriber is still served")
            #expect(try talking.request("ping")["ok"] as? Bool == true)
        }
    }

    @Test func aSilentMPDClientIsClosedAndAnIdleOneStays() throws {
        try withMPDDaemon(config: Self.config) { mpd in
            let silent = try mpd.client()
            let idle = try mpd.client()
            try idle.send("idle")
            Thread.sleep(forTimeInterval: 6)
            #expect(silent.isClosedByServer(within: 1), "the silent client is disconnected")
            // The idle client was not: `noidle` is answered.
            try idle.send("noidle")
            #expect(try idle.readAnswer() == ["OK"])
            // Out of idle, its silence counts again from the answer.
            #expect(idle.isClosedByServer(within: 8), "silent once out of idle")
        }
    }

    /// With a password, a client that has not given it gets ten seconds at most, however
    /// long `connection_timeout` is; one that has gets the whole timeout.
    @Test func beforeThePasswordSilenceEndsSooner() throws {
        try withMPDDaemon(config: "connection_timeout = 40\nmpd_password = \"secret\"\n") { mpd in
            let stranger = try mpd.client()
            let member = try mpd.client()
            #expect(try member.command(#"password "secret""#) == ["OK"])
            #expect(stranger.isClosedByServer(within: 20), "closed within 10 s, not 40")
            #expect(try member.command("ping") == ["OK"], "the authenticated client, as silent, stays")
        }
    }

    /// Silent connections at the cap are closed in time, and a newcomer is greeted.
    @Test func silenceCannotHoldTheCap() throws {
        try withMPDDaemon(config: Self.config + "max_connections = 4\n") { mpd in
            var held: [LineSocketClient] = []
            for _ in 0..<4 { held.append(try LineSocketClient(host: "127.0.0.1", port: mpd.port)) }
            let refused = try LineSocketClient(host: "127.0.0.1", port: mpd.port)
            #expect(try refused.readLine().hasPrefix("ACK [52@0]"), "the cap is full")
            for client in held { #expect(client.isClosedByServer(within: 10)) }
            let newcomer = try mpd.client()
            #expect(newcomer.greeting.hasPrefix("OK MPD "))
            #expect(try newcomer.command("ping") == ["OK"])
        }
    }
}
