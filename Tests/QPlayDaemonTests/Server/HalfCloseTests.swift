import Foundation
import QPlayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A one-shot client shuts its write side right after its requests, as
/// `echo '{"id":1,"cmd":"status"}' | socat - UNIX-CONNECT:$SOCK` does (docs/PROTOCOL.md):
/// every answer must still reach it before the daemon closes, on qplay's socket and on
/// the MPD frontend's.
@Suite("Half-closed one-shot connections are answered", .serialized, .timeLimit(.minutes(3)))
struct HalfCloseTests {
    static let rounds = 100

    @Test func jsonSocketAnswersEveryHalfClosedRequest() throws {
        let mpd = try MPDDaemon()
        defer { mpd.stop() }
        var unanswered: [String] = []
        for round in 1...Self.rounds {
            let output = try OneShotClient.exchange(
                unixPath: mpd.daemon.socketPath, request: "{\"id\":\(round),\"cmd\":\"status\"}\n")
            let lines = output.split(separator: "\n").map(String.init)
            let answered = lines.count == 2 && lines[0].contains("\"protocol\":\"qplay/") && lines[1].contains("\"id\":\(round)")
                && lines[1].contains("\"ok\":true")
            if !answered { unanswered.append("round \(round): \(output.debugDescription)") }
        }
        #expect(unanswered.isEmpty, "\(unanswered.count) of \(Self.rounds) unanswered, e.g. \(unanswered.prefix(3))")
    }

    @Test func mpdAnswersEveryHalfClosedRequest() throws {
        let mpd = try MPDDaemon()
        defer { mpd.stop() }
        var unanswered: [String] = []
        for round in 1...Self.rounds {
            // Alternating the frontend's TCP and Unix listeners.
            let output =
                round.isMultiple(of: 2)
                ? try OneShotClient.exchange(port: mpd.port, request: "status\nping\n")
                : try OneShotClient.exchange(unixPath: mpd.socketPath, request: "status\nping\n")
            let lines = output.split(separator: "\n").map(String.init)
            let answered = lines.first?.hasPrefix("OK MPD ") == true && lines.contains { $0.hasPrefix("state: ") }
                && lines.filter { $0 == "OK" }.count == 2 && lines.last == "OK"
            if !answered { unanswered.append("round \(round): \(output.debugDescription)") }
        }
        #expect(unanswered.isEmpty, "\(unanswered.count) of \(Self.rounds) unanswered, e.g. \(unanswered.prefix(3))")
    }

    /// A command that changes the player is answered too, not only run.
    @Test func halfClosedNextIsAnswered() throws {
        let mpd = try MPDDaemon()
        defer { mpd.stop() }
        try mpd.daemon.qplayOK("add", "--where", "title~a")
        for round in 1...10 {
            let output = try OneShotClient.exchange(
                unixPath: mpd.daemon.socketPath, request: "{\"id\":\(round),\"cmd\":\"next\"}\n")
            #expect(output.contains("\"id\":\(round)"), "round \(round): \(output.debugDescription)")
        }
    }
}

/// A raw client that writes its request, shuts its write side (`shutdown(SHUT_WR)`) and
/// reads to end of file.
enum OneShotClient {
    static func exchange(unixPath: String, request: String) throws -> String {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw LineSocketClient.Failure(description: "socket: errno \(errno)") }
        defer { close(descriptor) }
        guard UnixSocketAddress.connect(descriptor, to: unixPath) == 0 else {
            throw LineSocketClient.Failure(description: "connect \(unixPath): errno \(errno)")
        }
        return try exchange(descriptor, request: request)
    }

    static func exchange(port: Int, request: String) throws -> String {
        let descriptor = try LoopbackSocket.connected(port: port)
        defer { close(descriptor) }
        return try exchange(descriptor, request: request)
    }

    private static func exchange(_ descriptor: Int32, request: String) throws -> String {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array(request.utf8)
        let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw LineSocketClient.Failure(description: "send: \(sent), errno \(errno)") }
        shutdown(descriptor, Int32(SHUT_WR))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[..<count]
            } else if count == 0 || errno == ECONNRESET {
                break
            } else if errno != EINTR {
                throw LineSocketClient.Failure(description: "recv: errno \(errno) after \(received.count) bytes")
            }
        }
        return String(decoding: received, as: UTF8.self)
    }
}
