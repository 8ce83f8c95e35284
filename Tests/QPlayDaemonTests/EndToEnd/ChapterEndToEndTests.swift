import Foundation
import QPlayTestSupport
import Testing

/// An audiobook's chapters through the real daemon, the real `qplay` and the `file:`
/// output: `qplay chapters` lists them, `status` names the one playing, and `qplay
/// chapter next|N|prev` land where the capture shows them — found sample-exact in an
/// ALAC `.m4b` whose four chapters are four tones.
@Suite struct ChapterEndToEndTests {
    static let rate = ResumeEndToEndTests.rate

    struct Book {
        let directory: TemporaryDirectory
        let pcm: GeneratedPCM
    }

    /// 40 s, a step of the staircase (its own tone) per 10 s chapter.
    static func book() throws -> Book {
        let directory = TemporaryDirectory("qplay-chapters")
        let pcm = ResumeEndToEndTests.staircase(seconds: 40, seed: 3, baseHz: 400)
        let plain = try GeneratedAudio.encode(pcm, as: .alac, to: "plain.m4a", in: directory)
        try GeneratedAudio.addChapters(
            [("One", 0), ("Two", 10), ("Three", 20), ("Four", 30)], length: 40, to: plain, as: "book.m4b",
            layout: .quickTimeTrack, in: directory)
        try FileManager.default.removeItem(atPath: plain.string)
        return Book(directory: directory, pcm: pcm)
    }

    private static func position(_ client: LineSocketClient) throws -> Double {
        try #require(number(try client.status()["position"]))
    }

    /// Pauses, runs `qplay ARGS` (a chapter command), plays on, and answers where in the
    /// book the capture went on from.
    private static func heard(
        after arguments: [String], _ daemon: DaemonProcess, _ client: LineSocketClient, _ book: Book
    ) throws -> Double {
        try client.ok("pause")
        let before = try ResumeEndToEndTests.settledCapture(daemon)
        let result = try daemon.qplay(arguments: arguments)
        try #require(result.status == 0, "qplay \(arguments): \(result)")
        let target = try position(client)
        try client.ok("play")
        try waitUntil("playing on from \(target) s") { try position(client) >= target + 1.5 }
        return try #require(
            ResumeEndToEndTests.firstPosition(of: book.pcm, inCapture: try daemon.capturedSamples(), after: before))
    }

    @Test func chaptersAreListedAndSteppingAndJumpingLandOnTheirStarts() throws {
        let book = try Self.book()
        defer { book.directory.remove() }
        try withDaemon(music: book.directory.path.string, config: "watch = false\n") { daemon in
            let client = try daemon.client()
            try client.ok("add", ["paths": ["book.m4b"]])
            try waitUntil("playing past 1 s") { try Self.position(client) >= 1 }

            let status = try client.status()
            let chapters = try #require(status["chapters"] as? [[String: Any]])
            #expect(chapters.map { $0["title"] as? String } == ["One", "Two", "Three", "Four"])
            #expect(chapters.map { number($0["start"]) } == [0, 10, 20, 30])
            #expect(status["chapter"] as? Int == 0)
            let listed = try daemon.qplayOK("chapters")
            #expect(listed == "▶ 1  0:00  One\n  2  0:10  Two\n  3  0:20  Three\n  4  0:30  Four\n")
            #expect(try daemon.qplayOK("status", "--format", "{chapter}") == "One\n")

            // On: the second chapter's first sample.
            let next = try Self.heard(after: ["chapter", "next"], daemon, client, book)
            #expect(abs(next - 10) < 0.001, "chapter next went on from \(next) s")
            #expect(try client.status()["chapter"] as? Int == 1)
            // By number (1-based on the command line).
            let fourth = try Self.heard(after: ["chapter", "4"], daemon, client, book)
            #expect(abs(fourth - 30) < 0.001, "chapter 4 went on from \(fourth) s")
            #expect(try daemon.qplayOK("status").contains("chapter 4 of 4: Four"))
            // Back within 3 s of its start: the chapter before.
            #expect(try Self.position(client) < 33)
            let previous = try Self.heard(after: ["chapter", "prev"], daemon, client, book)
            #expect(abs(previous - 20) < 0.001, "chapter prev (early) went on from \(previous) s")
            // Back later in a chapter: its own start.
            try waitUntil("3.5 s into the third chapter") { try Self.position(client) >= 23.5 }
            let restart = try Self.heard(after: ["chapter", "prev"], daemon, client, book)
            #expect(abs(restart - 20) < 0.001, "chapter prev (late) went on from \(restart) s")

            // Refusals change nothing and say why.
            let beyond = try daemon.qplay("chapter", "5")
            #expect(beyond.status == 1 && beyond.stderr.contains("no such chapter: the track has 4"), "\(beyond)")
            let usage = try daemon.qplay("chapter", "sideways")
            #expect(usage.status == 2, "\(usage)")
        }
    }
}
