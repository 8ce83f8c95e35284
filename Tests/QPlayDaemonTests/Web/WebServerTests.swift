import Foundation
import QPlayTestSupport
import Testing

/// The web remote's server against a real qplayd on a free loopback port: protocol v1
/// over `/ws`, the page's files (gzip, ETag), `/art/<id>`, the 16 KiB head limit and
/// the head timeout that keeps slow clients from holding the connection cap.
@Suite(.serialized)
struct WebServerTests {
    static func started(config: String? = nil, music: String = SampleCatalog.directory.string) throws -> (DaemonProcess, Int) {
        let port = try FreeTCPPort.probe()
        let daemon = try DaemonProcess.started(music: music, config: config, arguments: ["--http", "127.0.0.1:\(port)"])
        return (daemon, port)
    }

    @Test func protocolOverWebSocketGreetsAnswersAndPushesEvents() throws {
        let (daemon, port) = try Self.started()
        defer { daemon.stop(); daemon.directory.remove() }
        let web = try WebServerClient(port: port)
        let upgrade = try web.upgrade(origin: "http://127.0.0.1:\(port)")
        #expect(upgrade.status == 101)
        let greeting = try web.readObject()
        #expect(greeting["protocol"] as? String == "qplay/1")

        try web.sendText(#"{"id":1,"cmd":"status"}"#)
        let status = try web.readObject()
        #expect(status["id"] as? Int == 1 && status["ok"] as? Bool == true)
        try web.sendText(#"{"id":"bad","cmd":"no_such_command"}"#)
        let failure = try web.readObject()
        #expect(failure["ok"] as? Bool == false)
        try web.sendText(#"{"id":2,"cmd":"subscribe","args":{"events":["queue"]}}"#)
        let subscribed = try web.readObject()
        #expect(subscribed["id"] as? Int == 2 && subscribed["ok"] as? Bool == true)

        // A change made on the Unix socket reaches the page as an event.
        let socket = try daemon.client()
        let added = try socket.request("add", ["where": [["property": "title", "op": "contains", "value": "e"]]])
        #expect(added["ok"] as? Bool == true)
        let event = try web.readObject()
        #expect(event["event"] as? String == "queue")

        // A request over the WebSocket changes what the socket sees.
        try web.sendText(#"{"id":3,"cmd":"clear"}"#)
        var answer = try web.readObject()
        while answer["id"] == nil { answer = try web.readObject() }
        #expect(answer["id"] as? Int == 3 && answer["ok"] as? Bool == true)
        let after = try socket.request("status")
        #expect((after["result"] as? [String: Any])?["queue_length"] as? Int == 0)

        // SIGTERM with the page connected: the WebSocket ends and qplayd exits 0.
        #expect(daemon.stop() == 0)
        #expect(web.isClosedByServer(within: 5))
    }

    /// The page comes with the track playing in it, so its first paint shows it before
    /// the WebSocket is open; and with the state it is in (the toggle's name).
    @Test func thePageIsServedWithTheTrackPlaying() throws {
        let (daemon, port) = try Self.started()
        defer { daemon.stop(); daemon.directory.remove() }
        let web = try WebServerClient(port: port)
        let idle = try web.request("GET", "/").text
        #expect(idle.contains(#"<h1 id="title" class="title">Nothing playing</h1>"#))
        #expect(idle.contains(#"<title>qplay</title>"#) && idle.contains(#"aria-label="Play""#))

        let socket = try daemon.client()
        _ = try socket.ok("add", ["where": [["property": "title", "op": "contains", "value": "e"]]])
        _ = try socket.ok("jump", ["index": 0])
        let track = try #require(try socket.ok("status")["track"] as? [String: Any])
        let title = try #require(track["title"] as? String)
        let html = { (text: String) in
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "'", with: "&#39;")
        }
        let playing = try web.request("GET", "/")
        #expect(playing.text.contains(#"<h1 id="title" class="title">\#(html(title))</h1>"#))
        #expect(playing.text.contains("<title>\(html(title)) – qplay</title>"))
        #expect(playing.text.contains(#"aria-label="Pause""#))
        let zipped = try web.request("GET", "/", headers: [("Accept-Encoding", "gzip")])
        #expect(zipped.headers["etag"] == playing.headers["etag"])

        _ = try socket.ok("pause")
        let paused = try web.request("GET", "/", headers: [("If-None-Match", try #require(playing.headers["etag"]))])
        #expect(paused.status == 200, "a page with another state is another page")
        #expect(paused.text.contains(#"aria-label="Play""#) && paused.text.contains(html(title)))
    }

    @Test func aMessageOverTheLineLimitClosesTheConnection() throws {
        let (daemon, port) = try Self.started()
        defer { daemon.stop(); daemon.directory.remove() }
        let web = try WebServerClient(port: port)
        #expect(try web.upgrade(origin: "http://127.0.0.1:\(port)").status == 101)
        _ = try web.readObject()
        try web.sendText(#"{"id":1,"cmd":"ping","pad":""# + String(repeating: "x", count: 70_000) + #""}"#)
        #expect(web.isClosedByServer(within: 10))
        // The daemon serves on.
        let next = try WebServerClient(port: port)
        #expect(try next.request("GET", "/").status == 200)
    }

    @Test func aSilentWebSocketIsClosedAndOnePingingStaysOpen() throws {
        let port = try FreeTCPPort.probe()
        let daemon = try DaemonProcess.started(
            arguments: ["--http", "127.0.0.1:\(port)"], environment: ["QPLAYD_WEB_IDLE_TIMEOUT": "2"])
        defer { daemon.stop(); daemon.directory.remove() }
        let silent = try WebServerClient(port: port)
        let pinging = try WebServerClient(port: port)
        for client in [silent, pinging] {
            #expect(try client.upgrade(origin: "http://127.0.0.1:\(port)").status == 101)
            _ = try client.readObject()
        }
        // The pinging client sends a ping each second for five seconds: more than twice
        // the timeout, each gap well under it.
        for id in 1...5 {
            Thread.sleep(forTimeInterval: 1)
            try pinging.sendText(#"{"id":\#(id),"cmd":"ping"}"#)
            #expect(try pinging.readObject()["id"] as? Int == id)
        }
        #expect(silent.isClosedByServer(within: 10))
        try pinging.sendText(#"{"id":9,"cmd":"ping"}"#)
        #expect(try pinging.readObject()["id"] as? Int == 9)
    }

    @Test func pageFilesAreGzippedWhenAskedAndRevalidatedByETag() throws {
        let (daemon, port) = try Self.started()
        defer { daemon.stop(); daemon.directory.remove() }
        let web = try WebServerClient(port: port)
        let plain = try web.request("GET", "/")
        #expect(plain.status == 200)
        #expect(plain.headers["content-encoding"] == nil)
        #expect(plain.text.lowercased().hasPrefix("<!doctype html>"))
        #expect(plain.text.contains("<script>"), "the page's first script is inline")
        #expect(plain.headers["content-security-policy"] == (try WebPagePolicy.expected(forPage: plain.text)))
        #expect(plain.headers["x-content-type-options"] == "nosniff")
        #expect(plain.headers["referrer-policy"] == "no-referrer")

        let zipped = try web.request("GET", "/", headers: [("Accept-Encoding", "gzip, deflate")])
        #expect(zipped.status == 200)
        #expect(zipped.headers["content-encoding"] == "gzip")
        #expect(Array(zipped.body.prefix(2)) == [0x1F, 0x8B])
        #expect(zipped.body.count < plain.body.count)

        let etag = try #require(plain.headers["etag"])
        let again = try web.request("GET", "/", headers: [("If-None-Match", etag)])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(try web.request("GET", "/no-such-file").status == 404)
    }

    @Test func artServesAPictureWithETagAndRefusesPathTricks() throws {
        let music = TemporaryDirectory("web-art")
        defer { music.remove() }
        let png = GeneratedPictures.png()
        _ = try GeneratedPictures.mp3(
            in: music, name: "pictured.mp3", pictures: [.init(mime: "image/png", type: 3, data: png)])
        _ = try GeneratedPictures.mp3(in: music, name: "bare.mp3", pictures: [])
        let (daemon, port) = try Self.started(music: music.path.string)
        defer { daemon.stop(); daemon.directory.remove() }
        let found = try daemon.client().request("search", ["limit": 10])
        let tracks = try #require((found["result"] as? [String: Any])?["tracks"] as? [[String: Any]])
        let pictured = try #require(tracks.first { ($0["path"] as? String) == "pictured.mp3" }?["id"] as? Int)
        let bare = try #require(tracks.first { ($0["path"] as? String) == "bare.mp3" }?["id"] as? Int)

        let web = try WebServerClient(port: port)
        let picture = try web.request("GET", "/art/\(pictured)")
        #expect(picture.status == 200)
        #expect(picture.body == png)
        #expect(picture.headers["content-type"] == "image/png")
        #expect(picture.headers["cache-control"] != nil)
        let etag = try #require(picture.headers["etag"])
        #expect(try web.request("GET", "/art/\(pictured)", headers: [("If-None-Match", etag)]).status == 304)

        for path in [
            "/art/\(bare)", "/art/999999", "/art/abc", "/art/-1", "/art/", "/art/\(pictured)/x", "/art/../etc/passwd",
            "/art/%2e%2e%2fetc%2fpasswd", "/art/\(pictured)%00", "/art/1e3", "/art/99999999999999999999999",
        ] {
            let answer = try WebServerClient(port: port).request("GET", path)
            #expect(answer.status == 404, "\(path)")
        }
    }

    @Test func oversizedHeadersAreRefusedAndServingGoesOn() throws {
        let (daemon, port) = try Self.started()
        defer { daemon.stop(); daemon.directory.remove() }
        let big = try WebServerClient(port: port)
        try big.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Filler: " + String(repeating: "a", count: 20_000) + "\r\n\r\n")
        let refused = try big.readReply()
        #expect(refused.status == 431)
        #expect(big.isClosedByServer(within: 10))
        #expect(try WebServerClient(port: port).request("GET", "/").status == 200)
    }

    @Test func aKeptAliveClientTricklingItsNextRequestIsClosed() throws {
        let (daemon, port) = try Self.started()
        defer { daemon.stop(); daemon.directory.remove() }
        let client = try WebServerClient(port: port, timeoutSeconds: 2)
        #expect(try client.request("GET", "/").status == 200)
        try client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n")
        var closed = false
        for second in 0..<30 where !closed {
            do {
                try client.send("X-Slow-\(second): 1\r\n")
            } catch {
                closed = true
            }
            if !closed { closed = client.isClosedByServer(within: 1) }
        }
        #expect(closed)
    }

    @Test func slowClientsDoNotKeepOthersOut() throws {
        let (daemon, port) = try Self.started(config: "max_connections = 3\n")
        defer { daemon.stop(); daemon.directory.remove() }
        // Three clients take every place and trickle their headers, a line a second.
        let slow = try (0..<3).map { _ in try WebServerClient(port: port, timeoutSeconds: 2) }
        for client in slow { try client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n") }
        Thread.sleep(forTimeInterval: 0.5)
        let refused = try WebServerClient(port: port).request("GET", "/")
        #expect(refused.status == 503)
        var served = false
        for second in 0..<40 where !served {
            for client in slow { try? client.send("X-Slow-\(second): 1\r\n") }
            Thread.sleep(forTimeInterval: 1)
            if let answer = try? WebServerClient(port: port, timeoutSeconds: 5).request("GET", "/"), answer.status == 200 {
                served = true
            }
        }
        #expect(served)
        for client in slow { #expect(client.isClosedByServer(within: 5)) }
    }
}
