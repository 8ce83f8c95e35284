import Foundation
import QPlayTestSupport
import SystemPackage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The web remote's `/stream` (`http_stream`) against a real qplayd, heard by real
/// ffmpeg listeners: the queue's tones in order with no gap at the track change, two
/// listeners at once, Ogg Opus as well as MP3, silence while nothing plays; a listener that never reads is dropped
/// while the daemon's own output plays on without a gap; the web remote's Host and
/// sign-in rules hold on `/stream`.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct WebStreamTests {
    static let low = ToneFixture(file: "low.mp3", title: "Low", toneHz: 440, seconds: 3, sampleRate: 44100, channels: 2)
    static let high = ToneFixture(file: "high.mp3", title: "High", toneHz: 660, seconds: 3, sampleRate: 44100, channels: 2)
    static let long = ToneFixture(file: "long.mp3", title: "Long", toneHz: 550, seconds: 40, sampleRate: 44100, channels: 2)

    /// An ffmpeg listener of `url` that decodes `seconds` of it to mono S16 at 44.1 kHz.
    final class Listener {
        let process: SpawnedProcess
        let output: String

        init(url: String, seconds: Int, in directory: TemporaryDirectory, name: String) throws {
            output = directory.appending("\(name).raw").string
            let log = open(directory.appending("\(name).log").string, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            defer { close(log) }
            process = try SpawnedProcess(
                IcecastServer.ffmpeg,
                ["-nostdin", "-loglevel", "error", "-i", url, "-t", "\(seconds)", "-f", "s16le", "-ac", "1", "-ar", "44100",
                 "-y", output],
                stdout: log, stderr: log)
        }

        func samples() throws -> [Int16] {
            let bytes = try TemporaryDirectory.read(FilePath(output))
            return (0..<(bytes.count / 2)).map { index -> Int16 in
                let low = UInt16(bytes[2 * index])
                let high = UInt16(bytes[2 * index + 1])
                return Int16(bitPattern: low | high << 8)
            }
        }
    }

    /// The tone of each 0.1 s window from the first sounding sample on: 0 for a silent one.
    static func windows(_ samples: [Int16]) -> [Double] {
        guard let first = samples.firstIndex(where: { abs($0) > 2000 }) else { return [] }
        let size = 4410
        return stride(from: first, to: samples.count - size, by: size).map { start in
            let window = samples[start..<(start + size)]
            guard (window.map { abs(Int($0)) }.max() ?? 0) > 2000 else { return 0 }
            return ToneAnalysis.frequency(of: window, channels: 1, sampleRate: 44100)
        }
    }

    /// The tones heard in order, each window near 440 Hz, then each near 660 Hz, none
    /// silent between them; what the listener heard, for the failure message.
    static func expectLowThenHigh(_ samples: [Int16], sourceLocation: SourceLocation = #_sourceLocation) {
        let heard = windows(samples)
        let low = heard.prefix { abs($0 - 440) < 15 }.count
        let high = heard.dropFirst(low).prefix { abs($0 - 660) < 15 }.count
        // Each 3 s tone fills about 30 windows; the one at the change holds both tones.
        #expect(low >= 25 && high >= 25, "windows heard: \(heard.map { Int($0) })", sourceLocation: sourceLocation)
        let gap = heard.dropFirst(low).prefix(2).contains(0)
        #expect(!gap, "silence at the track change: \(heard.map { Int($0) })", sourceLocation: sourceLocation)
    }

    @Test(arguments: ["mp3", "opus"])
    func twoListenersHearTheQueueInOrderWithoutAGap(format: String) throws {
        let music = TemporaryDirectory("qplay-stream-music")
        defer { music.remove() }
        _ = try ToneFixtures.generate([Self.low, Self.high], in: music)
        let port = try FreeTCPPort.probe()
        try withDaemon(
            music: music.path.string, config: "http_stream = \"\(format)\"\n", arguments: ["--http", "127.0.0.1:\(port)"]
        ) { daemon in
            let folder = daemon.directory
            let listeners = try (1...2).map {
                try Listener(url: "http://127.0.0.1:\(port)/stream", seconds: 9, in: folder, name: "listener\($0)")
            }
            // Both connected (silence flows to them) before the music starts.
            usleep(1_500_000)
            let client = try daemon.client()
            try client.ok("add", ["paths": [Self.low.file, Self.high.file]])
            for listener in listeners {
                let status = listener.process.wait()
                #expect(status == 0, "ffmpeg exited \(status)")
            }
            for listener in listeners {
                let samples = try listener.samples()
                Self.expectLowThenHigh(samples)
                // 9 s of stream although the queue holds 6 s and began 1.5 s in: silence
                // before it and after it, the stream unbroken.
                #expect(samples.count >= 44100 * 9 - 4410, "only \(samples.count) samples of 9 s")
            }
            let outputs = try client.status()["outputs"] as? [[String: Any]] ?? []
            #expect(outputs.map { $0["name"] as? String } == ["file:\(daemon.capturePath)", "http_stream:\(format)"])
        }
    }

    /// A client that asks for the stream and never reads (its receive buffer kept
    /// small): once it is over 2 s behind, the daemon closes its connection; the
    /// daemon's own output plays the tone through without a gap.
    @Test func aListenerThatNeverReadsIsDroppedAndPlaybackHasNoGap() throws {
        let music = TemporaryDirectory("qplay-stream-music")
        defer { music.remove() }
        _ = try ToneFixtures.generate([Self.long], in: music)
        let port = try FreeTCPPort.probe()
        try withDaemon(
            music: music.path.string, config: "http_stream = \"mp3\"\n", arguments: ["--http", "127.0.0.1:\(port)"]
        ) { daemon in
            let stuck = try StuckListener(port: port)
            defer { stuck.close() }
            let client = try daemon.client()
            try client.ok("add", ["paths": [Self.long.file]])
            // 128 kb/s: the socket buffers on both sides and the 2 s allowed fill in about
            // 10 s; the daemon's side closing shows as this socket's CLOSE_WAIT.
            try waitUntil("the daemon closes the stuck listener", limit: 60) { stuck.isClosedByServer }
            // Played on meanwhile: at least 10 s of the tone in the capture.
            try waitUntil("10 s played", limit: 60) { try daemon.capturedSamples().count > 44100 * 2 * 12 }
            let heard = try daemon.capturedSamples()
            let first = try #require(heard.firstIndex { abs($0) > 1000 })
            let played = heard[(first - first % 2)...]
            let quietest = stride(from: 0, to: played.count - 882, by: 882).map { offset in
                played[(played.startIndex + offset)..<(played.startIndex + offset + 882)].map { abs(Int($0)) }.max() ?? 0
            }.min() ?? 0
            #expect(played.count > 44100 * 2 * 10, "only \(played.count / 88200) s played")
            #expect(quietest > 1000, "a 10 ms stretch of the daemon's output peaked at \(quietest)")
        }
    }

    /// SIGTERM while a listener listens: the listener's stream ends and qplayd exits 0
    /// (it waited for the stream's answer to end, which never came, before).
    @Test func theDaemonStopsWhileSomeoneListens() throws {
        let port = try FreeTCPPort.probe()
        try withDaemon(config: "http_stream = \"mp3\"\n", arguments: ["--http", "127.0.0.1:\(port)"]) { daemon in
            let listener = try Listener(
                url: "http://127.0.0.1:\(port)/stream", seconds: 600, in: daemon.directory, name: "listener")
            try waitUntil("the listener gets the stream") {
                ((try? TemporaryDirectory.read(FilePath(listener.output)))?.count ?? 0) > 44100
            }
            let status = daemon.stop(within: 30)
            #expect(status == 0, "qplayd with a listener: \(status.map(String.init) ?? "still running 30 s after SIGTERM")")
            listener.process.signal(SIGTERM)
            listener.process.wait()
        }
    }

    @Test func theWebRemotesRulesHoldOnTheStream() throws {
        let port = try FreeTCPPort.probe()
        try withDaemon(
            config: "http_stream = \"mp3\"\nhttp_password = \"correct horse\"\n", arguments: ["--http", "127.0.0.1:\(port)"]
        ) { _ in
            let misdirected = try WebServerClient(port: port).request("GET", "/stream", headers: [("Host", "attacker.example")])
            #expect(misdirected.status == 421)
            let anonymous = try WebServerClient(port: port).request("GET", "/stream")
            #expect(anonymous.status == 401)
            // Another site's page (its audio element, a fetch) is refused before the sign-in.
            let crossSite = try WebServerClient(port: port).request("GET", "/stream", headers: [("Sec-Fetch-Site", "cross-site")])
            #expect(crossSite.status == 403)
            let foreign = try WebServerClient(port: port)
                .request("GET", "/stream", headers: [("Origin", "http://attacker.example")])
            #expect(foreign.status == 403)
            let ownPage = try WebServerClient(port: port).request(
                "GET", "/stream", headers: [("Origin", "http://127.0.0.1:\(port)"), ("Sec-Fetch-Site", "same-origin")])
            #expect(ownPage.status == 401, "the page's own request goes on to the sign-in")
        }
        try withDaemon(arguments: ["--http", "127.0.0.1:\(port)"]) { _ in
            let none = try WebServerClient(port: port).request("GET", "/stream")
            #expect(none.status == 404)
        }
    }
}

/// A TCP client that sends `GET /stream` with a small receive buffer and then reads
/// nothing, as a player that hung would.
private final class StuckListener {
    private let descriptor: Int32
    private let serverPort: Int

    init(port: Int) throws {
        serverPort = port
        descriptor = try LoopbackSocket.connected(port: port) { descriptor in
            var size: Int32 = 4096
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let request = Array("GET /stream HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Whether the server closed its side, told without reading the socket (with this
    /// side's window shut the server's FIN waits behind its unsent bytes): the kernel's
    /// entry for the server's end of this connection (local port the server's, remote
    /// port ours, in /proc/net/tcp) is no longer ESTABLISHED (01).
    var isClosedByServer: Bool {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        func hex(_ port: Int) -> String {
            let digits = String(port, radix: 16, uppercase: true)
            return ":" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
        let ours = hex(Int(UInt16(bigEndian: address.sin_port)))
        let server = hex(serverPort)
        let table = (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)) ?? ""
        let serverEnd = table.split(separator: "\n").map { $0.split(separator: " ") }.first { fields in
            fields.count > 3 && fields[1].hasSuffix(server) && fields[2].hasSuffix(ours)
        }
        return serverEnd.map { $0[3] != "01" } ?? true
    }

    func close() { _ = Glibc.close(descriptor) }
}
