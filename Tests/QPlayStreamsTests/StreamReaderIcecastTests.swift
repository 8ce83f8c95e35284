import Foundation
import QPlayStreamInput
import QPlayStreams
import QPlayTestSupport
import Testing

/// The stream reader against a real Icecast server on loopback, fed by ffmpeg with a
/// 440 Hz tone as 128 kb/s MP3: audio bytes and ICY titles arrive, what is not a stream
/// is refused with its reason, a full buffer holds the reader back, a silent server is
/// a stall.
@Suite(
    .enabled(if: IcecastServer.isInstalled, "needs icecast2, ffmpeg and curl (scripts/lib/packages.sh)"),
    .timeLimit(.minutes(2)), .serialized, .tags(.peer), .group(.peer))
struct StreamReaderIcecastTests {
    func withIcecast(tone mount: String? = "/tone.mp3", _ body: (IcecastServer) async throws -> Void) async throws {
        let server = try IcecastServer()
        defer {
            server.stop()
            server.directory.remove()
        }
        try server.start()
        if let mount { try server.startTone(mount: mount) }
        try await body(server)
    }

    /// Reads until `count` audio bytes arrived (or the stream ended first).
    func read(_ buffer: StreamBuffer, count: Int) async -> (bytes: [UInt8], end: StreamReadError?) {
        var bytes: [UInt8] = []
        while bytes.count < count {
            switch await buffer.next(maximum: count - bytes.count) {
            case .bytes(let more): bytes += more
            case .ended(let reason): return (bytes, reason)
            case .empty: continue
            }
        }
        return (bytes, nil)
    }

    @Test func audioBytesAndAnICYTitleArrive() async throws {
        try await withIcecast { server in
            try await withReader { reader in
                let connection = try await reader.open(URL(string: server.url("/tone.mp3"))!)
                #expect(connection.response.metadataInterval == 16000)
                #expect(connection.response.contentType == "audio/mpeg")
                let pump = Task { await connection.pump() }
                // Past Icecast's 64 KiB burst and three metadata intervals: the ICY blocks
                // must all have been taken out, or the MP3 frames would not chain.
                let first = await read(connection.buffer, count: 96_000)
                #expect(first.end == nil)
                let frames = MP3Frames.chained(first.bytes)
                #expect(frames.count > 200, "\(frames)")
                #expect(frames.broken == nil, "the frames break at \(String(describing: frames.broken))")

                // Icecast sends it in Latin-1 with the dash as "&#8211;"; `';` stays inside.
                let title = "Nina's Tune – Ünïcode';x"
                try server.setTitle(title, mount: "/tone.mp3")
                var seen: [String?] = []
                var events = connection.events.makeAsyncIterator()
                let reading = Task { [buffer = connection.buffer] in
                    // Keeps the audio flowing so the blocks after it arrive.
                    while case .bytes = await buffer.next(maximum: 65536) {}
                }
                // A bound, not a measurement: the title comes within one interval (1 s);
                // without it the events end with the closed stream and the test fails.
                let bound = Task { [buffer = connection.buffer] in
                    try await Task.sleep(for: .seconds(60))
                    buffer.close()
                }
                defer { bound.cancel() }
                while let event = await events.next() {
                    seen.append(event.metadata.title)
                    if event.metadata.title == title {
                        #expect(event.audioOffset >= 96_000)
                        break
                    }
                }
                #expect(seen.last == title, "titles seen: \(seen)")
                connection.buffer.close()
                #expect(await pump.value == .closed)
                reading.cancel()
            }
        }
    }

    @Test func notFoundIsRefusedWithItsStatus() async throws {
        try await withIcecast(tone: nil) { server in
            try await withReader { reader in
                let error = await openError(reader, server.url("/nothing-here.mp3"))
                // The reason as the server words it (Icecast's own).
                #expect(error == .httpStatus(404, "File Not Found"))
                #expect(error?.description == "the server answered 404 File Not Found")
            }
        }
    }

    @Test func anHTMLPageIsRefused() async throws {
        try await withIcecast(tone: nil) { server in
            try server.serve("station.html", "<!DOCTYPE html>\n<html><body>Listen live!</body></html>\n")
            try await withReader { reader in
                let error = await openError(reader, server.url("/station.html"))
                #expect(error == .notAudio("an HTML page (text/html)"), "\(String(describing: error))")
                #expect(error?.description == "not audio but an HTML page (text/html)")
            }
        }
    }

    /// Icecast serves each mount's `.m3u`: refused as a playlist, and its body lists the
    /// mount (what expanding a playlist URL will do).
    @Test func aPlaylistIsRefusedAsOneAndListsTheMount() async throws {
        try await withIcecast { server in
            try await withReader { reader in
                let error = await openError(reader, server.url("/tone.mp3.m3u"))
                #expect(error == .playlist("audio/x-mpegurl"), "\(String(describing: error))")
            }
            let body = try server.get("/tone.mp3.m3u").stdout
            let playlist = try StreamPlaylist.parse(Array(body.utf8), base: URL(string: server.url("/tone.mp3.m3u")))
            #expect(playlist.entries.map { $0.url.port } == [server.port])
            #expect(playlist.entries.map { $0.url.path } == ["/tone.mp3"])
        }
    }

    @Test func anUnreachablePortIsAnError() async throws {
        var options = StreamReaderOptions()
        options.connectTimeout = .seconds(2)
        let port = try FreeTCPPort.probe()
        try await withReader(options) { reader in
            let error = await openError(reader, "http://127.0.0.1:\(port)/tone.mp3")
            guard case .unreachable = error else {
                Issue.record("expected unreachable, got \(String(describing: error))")
                return
            }
        }
    }

    /// With the buffer full the reader waits — longer than the stall timeout, which
    /// counts only waiting for the network — and goes on once the consumer reads.
    @Test func aFullBufferHoldsTheReaderBack() async throws {
        var options = StreamReaderOptions()
        options.bufferCapacity = 32 * 1024
        options.stallTimeout = .seconds(2)
        try await withIcecast { server in
            try await withReader(options) { reader in
                let connection = try await reader.open(URL(string: server.url("/tone.mp3"))!)
                let pump = Task { await connection.pump() }
                while connection.buffer.available < options.bufferCapacity {
                    try await Task.sleep(for: .milliseconds(50))
                }
                let written = connection.buffer.bytesWritten
                try await Task.sleep(for: .seconds(3))
                #expect(connection.buffer.available == options.bufferCapacity)
                #expect(connection.buffer.bytesWritten == written)
                // Four times the buffer, read as it comes: the reader went on.
                let rest = await read(connection.buffer, count: 4 * options.bufferCapacity)
                #expect(rest.end == nil)
                #expect(rest.bytes.count == 4 * options.bufferCapacity)
                #expect(MP3Frames.chained(rest.bytes).broken == nil)
                connection.buffer.close()
                #expect(await pump.value == .closed)
            }
        }
    }

    /// A server that stops sending (stopped with SIGSTOP, its connection open) is a
    /// stall once the reader has waited the stall timeout.
    @Test func aSilentServerIsAStall() async throws {
        var options = StreamReaderOptions()
        options.stallTimeout = .seconds(2)
        try await withIcecast { server in
            try await withReader(options) { reader in
                let connection = try await reader.open(URL(string: server.url("/tone.mp3"))!)
                let pump = Task { await connection.pump() }
                let first = await read(connection.buffer, count: 70_000)
                #expect(first.end == nil)
                server.suspend()
                defer { server.resume() }
                let rest = await read(connection.buffer, count: Int.max)
                #expect(rest.end == .stalled(seconds: 2))
                #expect(await pump.value == .stalled(seconds: 2))
                #expect(StreamReadError.stalled(seconds: 2).description == "no data for 2 s")
            }
        }
    }
}

/// MPEG-1 Layer III frames walked by their headers' lengths: a byte of anything else
/// (an ICY block left in the audio) breaks the chain.
enum MP3Frames {
    static let bitrates = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
    static let rates = [44100, 48000, 32000]

    static func length(_ bytes: [UInt8], at index: Int) -> Int? {
        guard index + 4 <= bytes.count, bytes[index] == 0xFF, bytes[index + 1] & 0xFE == 0xFA else { return nil }
        let bitrate = Int(bytes[index + 2] >> 4)
        let rate = Int(bytes[index + 2] >> 2 & 3)
        guard bitrate > 0, bitrate < 15, rate < 3 else { return nil }
        return 144 * bitrates[bitrate] * 1000 / rates[rate] + Int(bytes[index + 2] >> 1 & 1)
    }

    /// Frames from the first header whose next three follow it; `broken`: the offset of
    /// the first place where a whole frame's successor is no header.
    static func chained(_ bytes: [UInt8]) -> (count: Int, broken: Int?) {
        guard let start = bytes.indices.first(where: { chains(bytes, from: $0, frames: 3) }) else { return (0, 0) }
        var index = start
        var count = 0
        while let length = length(bytes, at: index) {
            count += 1
            index += length
            if index + 4 > bytes.count { return (count, nil) }
        }
        return (count, index)
    }

    static func chains(_ bytes: [UInt8], from start: Int, frames: Int) -> Bool {
        var index = start
        for _ in 0..<frames {
            guard let length = length(bytes, at: index) else { return false }
            index += length
        }
        return length(bytes, at: index) != nil
    }
}
