import Foundation
import QPlayTestSupport
import Testing

/// `albumart` and `readpicture` open and read their files off the MPD frontend's event
/// loop (docs/MPD.md): every MPD client shares that loop, and a picture on a slow disk
/// must not hold the others' answers. strace, attached to the running qplayd, names the
/// thread that opens each file; NIO names its event loop threads `NIO-ELT-…`.
@Suite(.timeLimit(.minutes(2)), .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")))
struct MPDArtworkOffLoopTests {
    @Test func picturesAreOpenedOnAnotherThreadThanTheLoops() throws {
        let music = TemporaryDirectory("qplay-art-off-loop")
        defer { music.remove() }
        try FileManager.default.createDirectory(atPath: music.appending("A").string, withIntermediateDirectories: true)
        let song = try GeneratedPictures.mp3(
            in: music, name: "A/song.mp3",
            pictures: [.init(mime: "image/png", type: 3, data: GeneratedPictures.png(width: 200, height: 200))])
        let cover = music.appending("A/cover.jpg")
        try music.write(GeneratedPictures.jpegLike(count: 300_000), to: cover)
        let port = try FreeTCPPort.probe()
        try withDaemon(music: music.path.string, arguments: ["--mpd", "127.0.0.1:\(port)"]) { daemon in
            let trace = daemon.directory.appending("strace.out").string
            let strace = try SpawnedProcess(
                URL(fileURLWithPath: "/usr/bin/strace"),
                ["-f", "-qq", "-e", "trace=openat", "-o", trace, "-p", String(daemon.pid)],
                stdout: FileHandle.nullDevice.fileDescriptor, stderr: FileHandle.nullDevice.fileDescriptor)
            let client = try MPDRawClient(port: port)
            let other = try MPDRawClient(port: port)
            func opens(_ path: String) -> [String] {
                let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
                return text.split(separator: "\n").map(String.init).filter { $0.contains("\"\(path)\"") }
            }
            // Asked again until strace, attaching, has seen one open: then it sees all.
            try waitUntil("strace sees albumart open the cover") {
                let answer = try client.command("albumart A/song.mp3 0")
                #expect(answer.last == "OK" && answer.first == "size: 300000", "\(answer.prefix(1))")
                return !opens(cover.string).isEmpty
            }
            let picture = try client.command("readpicture A/song.mp3 0")
            #expect(picture.first?.hasPrefix("size: ") == true && picture.last == "OK", "\(picture.prefix(2))")
            #expect(try other.command("ping") == ["OK"])
            strace.signal(SIGINT)
            _ = strace.wait()
            let lines = opens(cover.string) + opens(song.string)
            #expect(lines.contains { $0.contains("song.mp3") }, "readpicture opened the song")
            for line in lines {
                let thread = try #require(line.split(separator: " ").first.map(String.init))
                let name = try String(contentsOfFile: "/proc/\(daemon.pid)/task/\(thread)/comm", encoding: .utf8)
                #expect(!name.hasPrefix("NIO-ELT"), "opened on the event loop thread \(name): \(line)")
            }
        }
    }
}
