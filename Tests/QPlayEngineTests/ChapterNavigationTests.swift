import QPlayEngine
import QPlayModel
import Testing

/// Chapter commands: which chapter plays at a position, and where on, back and a
/// chapter number go (docs/PROTOCOL.md, `chapter`).
@Suite struct ChapterNavigationTests {
    static let book = [
        Chapter(title: "Opening", start: 0), Chapter(title: "Two", start: 60), Chapter(title: "Three", start: 125.5),
        Chapter(title: "End", start: 300),
    ]

    @Test func theChapterAtAPositionIsTheLastThatHasBegun() {
        let at = { ChapterNavigation.index(at: $0, in: Self.book) }
        #expect([at(0), at(59.999), at(60), at(125.4), at(125.5), at(299), at(300), at(10_000)] == [0, 0, 1, 1, 2, 2, 3, 3])
        let late = [Chapter(title: "", start: 5), Chapter(title: "", start: 9)]
        #expect(ChapterNavigation.index(at: 4.9, in: late) == nil, "before the first chapter begins")
        #expect(ChapterNavigation.index(at: 3, in: []) == nil)
        // Hundreds of chapters: each position finds its own.
        let many = (0..<500).map { Chapter(title: "", start: Double($0) * 10) }
        #expect((0..<500).allSatisfy { ChapterNavigation.index(at: Double($0) * 10 + 9.99, in: many) == $0 })
    }

    @Test func onGoesToTheNextChapterAndNumbersGoThere() throws {
        let target = { (request: ChapterRequest, position: Double) throws(EngineError) in
            try ChapterNavigation.target(of: request, at: position, in: Self.book)
        }
        #expect(try target(.step(1), 10) == 60)
        #expect(try target(.step(1), 60) == 125.5)
        #expect(try target(.index(3), 10) == 300)
        #expect(try target(.index(0), 200) == 0)
        #expect(throws: EngineError.notFound("the last chapter is playing")) { try target(.step(1), 301) }
        #expect(throws: EngineError.notFound("no such chapter: the track has 4")) { try target(.index(4), 0) }
        #expect(throws: EngineError.badRequest("a chapter step is +1 or -1, got 2")) { try target(.step(2), 0) }
        #expect(throws: EngineError.badRequest("the playing track has no chapters")) {
            try ChapterNavigation.target(of: .step(1), at: 0, in: [])
        }
    }

    /// Back within the first 3 s of a chapter goes to the one before; later, to this
    /// chapter's start; in the first chapter always to its start.
    @Test func backWithinThreeSecondsGoesToThePreviousChapter() throws {
        let back = { (position: Double) throws(EngineError) in
            try ChapterNavigation.target(of: .step(-1), at: position, in: Self.book)
        }
        #expect(try back(60) == 0)
        #expect(try back(62.9) == 0)
        #expect(try back(63) == 60)
        #expect(try back(100) == 60)
        #expect(try back(127) == 60)
        #expect(try back(1) == 0)
        #expect(try back(30) == 0)
        let late = [Chapter(title: "", start: 5), Chapter(title: "", start: 9)]
        #expect(try ChapterNavigation.target(of: .step(-1), at: 2, in: late) == 0, "before the first: the track's start")
        #expect(try ChapterNavigation.target(of: .step(1), at: 2, in: late) == 5)
    }

    @Test func theEngineSeeksToTheChapterOfThePlayingTrack() throws {
        var h = Harness()
        #expect(throws: EngineError.badRequest("nothing is playing")) {
            try h.engine.seek(to: .step(1), in: Self.book, now: h.clock.now, position: 0)
        }
        try h.add([track("Book", seconds: 400)])
        h.position = 61
        #expect(
            try h.act { try $0.seek(to: .step(1), in: Self.book, now: $1, position: $2) }
                == EngineOutput(audio: [.seek(125.5)], events: [.player]))
        h.position = 126
        #expect(try h.act { try $0.seek(to: .step(-1), in: Self.book, now: $1, position: $2) }.audio == [.seek(60)])
        #expect(try h.act { try $0.seek(to: .index(3), in: Self.book, now: $1, position: $2) }.audio == [.seek(300)])
        // Refused: nothing is sent.
        h.position = 350
        #expect(throws: EngineError.notFound("the last chapter is playing")) {
            try h.engine.seek(to: .step(1), in: Self.book, now: h.clock.now, position: h.position)
        }
    }
}
