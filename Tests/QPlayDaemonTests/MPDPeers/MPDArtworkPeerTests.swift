import Foundation
import QPlayTestSupport
import SystemPackage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `albumart` and `readpicture` on the real MPD 0.23 and on qplayd over the same folder:
/// the answers, binary chunks included, must be byte-identical; python-mpd2 reads the
/// whole pictures from both.
@Suite(.serialized, .tags(.peer), .group(.peer))
struct MPDArtworkPeerTests {
    /// What the folder holds, to check the answers against (not only each other).
    struct Pictures {
        let png = GeneratedPictures.png(width: 64, height: 64, seed: 11)
        let jpeg = GeneratedPictures.jpegLike(count: 9000, seed: 12)
        let small = GeneratedPictures.png(width: 8, height: 8, seed: 13)
    }

    static let pictures = Pictures()

    /// A: an MP3 with two APIC frames (a type-0 JPEG before the PNG front cover), cover.png
    /// and cover.jpg; B: a FLAC with a PICTURE block and cover.webp; C: an MP3 without
    /// pictures and a `Cover.jpg` MPD does not look for (case); D: no image file, a FLAC
    /// whose picture is of exactly one chunk; E: an AAC `.m4a` with a `covr` atom.
    static func library() throws -> TemporaryDirectory {
        let music = TemporaryDirectory("mpd-art")
        for folder in ["A", "B", "C", "D", "E"] {
            try FileManager.default.createDirectory(
                atPath: music.appending(folder).string, withIntermediateDirectories: true)
        }
        let p = pictures
        _ = try GeneratedPictures.mp3(
            in: music, name: "A/two.mp3",
            pictures: [
                .init(mime: "image/jpeg", type: 0, description: "other", data: p.jpeg),
                .init(mime: "image/png", type: 3, description: "front", data: p.png),
            ])
        try music.write(p.png, to: music.appending("A/cover.png"))
        try music.write(p.jpeg, to: music.appending("A/cover.jpg"))
        _ = try GeneratedPictures.flac(in: music, name: "B/p.flac", picture: p.png)
        try music.write(p.jpeg, to: music.appending("B/cover.webp"))
        _ = try GeneratedPictures.mp3(in: music, name: "C/bare.mp3", pictures: [])
        try music.write(p.jpeg, to: music.appending("C/Cover.jpg"))
        _ = try GeneratedPictures.flac(in: music, name: "D/small.flac", picture: p.small)
        _ = try GeneratedPictures.m4a(in: music, name: "E/aac.m4a", picture: p.png)
        return music
    }

    /// The requests, each answered in full (MPD's default binarylimit of 8192 until the
    /// script sets its own).
    static let script: [String] = [
        "albumart A/two.mp3 0", "albumart A/two.mp3 8192", "albumart A/two.mp3 12000",
        "albumart A/two.mp3 \(pictures.png.count)", "albumart A/two.mp3 \(pictures.png.count + 1)",
        "albumart A/two.mp3 99999999", "albumart B/p.flac 0", "albumart B/p.flac 8192", "albumart C/bare.mp3 0",
        "albumart D/small.flac 0", "albumart A/nosuch.mp3 0", "albumart nosuch/x.mp3 0", "albumart ../x 0",
        "albumart A 0", "albumart \"\" 0", "albumart A/two.mp3 -1", "albumart A/two.mp3 x", "albumart A/two.mp3",
        "albumart /etc/passwd 0",
        "readpicture A/two.mp3 0", "readpicture A/two.mp3 8192", "readpicture A/two.mp3 \(pictures.jpeg.count)",
        "readpicture A/two.mp3 \(pictures.jpeg.count + 1)", "readpicture B/p.flac 0", "readpicture B/p.flac 12000",
        "readpicture C/bare.mp3 0", "readpicture C/bare.mp3 5", "readpicture D/small.flac 0",
        "readpicture A/nosuch.mp3 0", "readpicture A/cover.png 0", "readpicture A 0", "readpicture \"\" 0",
        "readpicture ../A/two.mp3 0", "readpicture A/two.mp3 x", "readpicture /etc/passwd 0",
        "readpicture E/aac.m4a 0", "readpicture E/aac.m4a 8192", "albumart E/aac.m4a 0",
        "command_list_ok_begin\nreadpicture D/small.flac 0\nalbumart A/two.mp3 12000\nping\ncommand_list_end",
        "command_list_begin\nalbumart B/p.flac 0\nreadpicture A/two.mp3 99999\nping\ncommand_list_end",
        // The connection's own chunk size, from here on (last, so the requests above keep
        // MPD's default).
        "binarylimit 63", "binarylimit x", "binarylimit -1", "binarylimit 8400897", "binarylimit 99999999999",
        "binarylimit 100", "albumart A/two.mp3 0", "readpicture A/two.mp3 8950", "readpicture E/aac.m4a 100",
        "binarylimit 100000", "albumart A/two.mp3 0", "readpicture A/two.mp3 0", "readpicture B/p.flac 0",
        "binarylimit 8400896", "albumart A/two.mp3 1", "readpicture E/aac.m4a 0",
        "ping",
    ]

    @Test func answersAreByteIdenticalToMPD() throws {
        try #require(RealMPDProcess.isInstalled, "needs /usr/bin/mpd")
        let music = try Self.library()
        defer { music.remove() }
        var transcripts: [MPDPeerKind: [[UInt8]]] = [:]
        for kind in MPDPeerKind.tested {
            try withPeer(kind, music: music.path.string) { peer in
                let client = try MPDBinaryClient(port: peer.port)
                transcripts[kind] = try Self.script.map { try client.request($0) }
            }
        }
        let reference = try #require(transcripts[.mpd])
        let tested = try #require(transcripts[.qplayd])
        for (index, request) in Self.script.enumerated() where reference[index] != tested[index] {
            Issue.record(
                """
                \(request)
                MPD:    \(MPDBinaryClient.describe(reference[index]))
                qplayd: \(MPDBinaryClient.describe(tested[index]))
                """)
        }
        // The answers hold the pictures themselves, not only the same as MPD's.
        let first = reference[0]
        #expect(first.starts(with: Array("size: \(Self.pictures.png.count)\nbinary: 8192\n".utf8)))
        #expect(Array(first.dropFirst("size: \(Self.pictures.png.count)\nbinary: 8192\n".utf8.count).prefix(8192))
            == Array(Self.pictures.png.prefix(8192)))
        #expect(reference[19].starts(with: Array("size: 9000\ntype: image/jpeg\nbinary: 8192\n".utf8)))
    }

    @Test(arguments: MPDPeerKind.tested)
    func pythonMPD2ReadsThePictures(_ kind: MPDPeerKind) throws {
        let music = try Self.library()
        defer { music.remove() }
        try withPeer(kind, music: music.path.string) { peer in
            let output = try peer.python(
                #"""
                import hashlib
                c = mpd.MPDClient()
                c.timeout = 20
                c.connect(HOST, PORT)
                out = {}
                for uri in ["A/two.mp3", "B/p.flac", "D/small.flac"]:
                    art = c.albumart(uri) if uri != "D/small.flac" else None
                    if art is not None:
                        out["albumart " + uri] = [len(art["binary"]), hashlib.sha256(art["binary"]).hexdigest()]
                    picture = c.readpicture(uri)
                    out["readpicture " + uri] = [
                        len(picture["binary"]), picture.get("type"), hashlib.sha256(picture["binary"]).hexdigest()]
                out["readpicture none"] = c.readpicture("C/bare.mp3")
                try:
                    c.albumart("C/bare.mp3")
                    out["albumart none"] = None
                except mpd.CommandError as error:
                    out["albumart none"] = str(error)
                print(json.dumps(out, sort_keys=True))
                """#)
            let got = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
            let p = Self.pictures
            func hash(_ bytes: [UInt8]) throws -> String {
                try String(decoding: runProcess(
                    URL(fileURLWithPath: "/usr/bin/sha256sum"), [], stdin: Data(bytes), killAfter: 10
                ).stdout.utf8.prefix(64), as: UTF8.self)
            }
            #expect(got?["albumart A/two.mp3"] as? [AnyHashable] == [p.png.count, try hash(p.png)] as [AnyHashable])
            #expect(got?["albumart B/p.flac"] as? [AnyHashable] == [p.jpeg.count, try hash(p.jpeg)] as [AnyHashable])
            #expect(
                got?["readpicture A/two.mp3"] as? [AnyHashable]
                    == [p.jpeg.count, "image/jpeg", try hash(p.jpeg)] as [AnyHashable])
            #expect(
                got?["readpicture B/p.flac"] as? [AnyHashable]
                    == [p.png.count, "image/png", try hash(p.png)] as [AnyHashable])
            #expect(
                got?["readpicture D/small.flac"] as? [AnyHashable]
                    == [p.small.count, "image/png", try hash(p.small)] as [AnyHashable])
            #expect((got?["readpicture none"] as? [String: Any])?.isEmpty == true)
            #expect((got?["albumart none"] as? String)?.contains("No file exists") == true)
        }
    }
}

extension MPDArtworkPeerTests {
    /// The real `mpc albumart` and `mpc readpicture` write the whole pictures (their
    /// bytes' SHA-256, through a pipe: the output is binary).
    @Test(arguments: MPDPeerKind.tested)
    func mpcWritesThePictures(_ kind: MPDPeerKind) throws {
        let music = try Self.library()
        defer { music.remove() }
        try withPeer(kind, music: music.path.string) { peer in
            func hash(_ command: String) throws -> String {
                let result = try runProcess(
                    URL(fileURLWithPath: "/bin/sh"),
                    ["-c", "mpc -h \(peer.host) -p \(peer.port) \(command) | sha256sum"], killAfter: 30)
                return String(result.stdout.prefix(64))
            }
            func hash(_ bytes: [UInt8]) throws -> String {
                String(
                    try runProcess(URL(fileURLWithPath: "/usr/bin/sha256sum"), [], stdin: Data(bytes), killAfter: 10)
                        .stdout.prefix(64))
            }
            let p = Self.pictures
            let (png, jpeg) = (try hash(p.png), try hash(p.jpeg))
            let albumArt = try hash("albumart A/two.mp3")
            let first = try hash("readpicture A/two.mp3")
            let covr = try hash("readpicture E/aac.m4a")
            #expect(albumArt == png, "\(kind): the folder's cover.png")
            #expect(first == jpeg, "\(kind): the first embedded picture")
            #expect(covr == png, "\(kind): the MP4's covr")
        }
    }
}

/// An MPD client that reads answers as bytes, `binary: N` payloads included (a line
/// reader would split a picture at its newline bytes).
final class MPDBinaryClient {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw LineSocketClient.Failure(description: "connect: errno \(errno)") }
        _ = try line()  // greeting
    }

    deinit { close(descriptor) }

    /// Sends `text` (one or more lines) and returns the whole answer up to its `OK` or
    /// `ACK` line.
    func request(_ text: String) throws -> [UInt8] {
        let bytes = Array((text + "\n").utf8)
        guard bytes.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, 0) }) == bytes.count else {
            throw LineSocketClient.Failure(description: "send failed")
        }
        var answer: [UInt8] = []
        while true {
            let line = try line()
            answer += line
            let text = String(decoding: line, as: UTF8.self)
            if text == "OK\n" || text.hasPrefix("ACK ") { return answer }
            if text.hasPrefix("binary: "), let count = Int(text.dropFirst(8).dropLast()) {
                answer += try take(count + 1)
            }
        }
    }

    /// The answer with its binary payloads summarised, for failure messages.
    static func describe(_ answer: [UInt8]) -> String {
        String(decoding: answer.map { $0 == 0x0A || ($0 >= 0x20 && $0 < 0x7F) ? $0 : UInt8(ascii: ".") }, as: UTF8.self)
            .prefix(300).replacingOccurrences(of: "\n", with: "⏎")
    }

    private func line() throws -> [UInt8] {
        while true {
            if let end = buffer.firstIndex(of: 0x0A) {
                defer { buffer.removeSubrange(...end) }
                return Array(buffer[...end])
            }
            try fill()
        }
    }

    private func take(_ count: Int) throws -> [UInt8] {
        while buffer.count < count { try fill() }
        defer { buffer.removeSubrange(..<count) }
        return Array(buffer[..<count])
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let got = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard got > 0 else { throw LineSocketClient.Failure(description: "connection ended (errno \(errno))") }
        buffer += chunk[..<got]
    }
}
