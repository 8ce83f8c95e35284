import QPlayEngine
import QPlayModel
import Testing

/// Play and skip counts (docs/BEHAVIOUR.md, Play counts and ratings) through the engine,
/// with the simulated audio side reporting its position once a second as the daemon
/// does: a play once half the track or 4 minutes has been heard, or at its end; a skip
/// when next, a jump or a removal leaves it after 2 s heard and before that.
@Suite struct PlayCountTests {
    /// A harness that keeps every count the engine emits, also those of the audio
    /// side's reports.
    struct Listener {
        var h = Harness()
        var counts: [ListenCount] = []

        mutating func deliver(_ output: EngineOutput) {
            counts += output.listens
            h.audio.apply(output)
            while !h.audio.reports.isEmpty {
                let answer =
                    switch h.audio.reports.removeFirst() {
                    case .started(let token): h.engine.audioStarted(token: token, now: h.clock.now)
                    case .finished(let token): h.engine.audioFinished(token: token, now: h.clock.now)
                    }
                counts += answer.listens
                h.audio.apply(answer)
            }
            h.position = h.audio.position
        }

        mutating func add(_ tracks: [Track]) throws {
            deliver(try h.engine.add(tracks, now: h.clock.now, position: h.position).output)
        }

        /// `seconds` of playback, reporting the position heard after each second.
        mutating func listen(_ seconds: Double) {
            var left = seconds
            while left > 1e-9 {
                let used = h.audio.run(upTo: min(1, left))
                h.clock.advance(.seconds(used))
                left -= used
                deliver(EngineOutput())
                deliver(h.engine.audioHeard(position: h.audio.position))
            }
        }

        mutating func act(_ command: (inout PlayerEngine, Duration, Double) throws -> EngineOutput) rethrows {
            deliver(try command(&h.engine, h.clock.now, h.position))
        }
    }

    static let a = track("A", seconds: 100)
    static let b = track("B", seconds: 100)

    static func play(_ track: Track) -> ListenCount { ListenCount(track: track.id, kind: .play) }
    static func skip(_ track: Track) -> ListenCount { ListenCount(track: track.id, kind: .skip) }

    @Test func aTrackHeardPastItsMiddleIsOnePlayCountedThere() throws {
        var l = Listener()
        try l.add([Self.a, Self.b])
        l.listen(49)
        #expect(l.counts.isEmpty)
        l.listen(1)
        #expect(l.counts == [Self.play(Self.a)])
        // Played on to its end and into B: still one play of A, none of B yet.
        l.listen(52)
        #expect(l.h.nowPlaying == "B")
        #expect(l.counts == [Self.play(Self.a)])
    }

    @Test func aTrackPlayedToItsEndIsAPlayEvenWhenLittleOfItWasHeard() throws {
        var l = Listener()
        try l.add([track("S", seconds: 30), Self.b])
        l.listen(3)
        try l.act { try $0.seek(to: 27, now: $1, position: $2) }
        l.listen(2)
        #expect(l.counts.isEmpty)
        l.listen(2)
        #expect(l.h.nowPlaying == "B")
        #expect(l.counts == [ListenCount(track: track("S").id, kind: .play)])
        // The last entry played to its end: the queue ends, B counted too.
        l.listen(101)
        #expect(l.h.nowPlaying == nil)
        #expect(l.counts.last == Self.play(Self.b))
        #expect(l.counts.count == 2)
    }

    @Test func leftAtFortyPercentIsASkip() throws {
        var l = Listener()
        try l.add([Self.a, Self.b])
        l.listen(40)
        l.act { $0.next(now: $1, position: $2) }
        #expect(l.h.nowPlaying == "B")
        #expect(l.counts == [Self.skip(Self.a)])
    }

    /// A stream (internet radio) is no library track: however long it is heard and
    /// however it is left, it counts neither a play nor a skip.
    @Test func aStreamCountsNoPlayAndNoSkip() throws {
        var stream = Track.stream(url: "http://127.0.0.1:8000/live")
        // The simulated audio plays a track for its length; a stream goes on.
        stream.duration = 10_000
        var l = Listener()
        try l.add([stream, Self.b])
        l.listen(300)
        #expect(l.counts.isEmpty)
        l.act { $0.next(now: $1, position: $2) }
        #expect(l.h.nowPlaying == "B")
        #expect(l.counts.isEmpty)
    }

    @Test func aSeekPastTheMiddleThenLeavingIsNoPlay() throws {
        var l = Listener()
        try l.add([Self.a, Self.b])
        l.listen(3)
        try l.act { try $0.seek(to: 70, now: $1, position: $2) }
        l.listen(3)
        #expect(l.h.engine.listeningTally.map { abs($0.heard - 6) < 1e-9 } == true)
        l.act { $0.next(now: $1, position: $2) }
        // Six seconds heard: a skip, not a play.
        #expect(l.counts == [Self.skip(Self.a)])
    }

    @Test func leavingAfterOneSecondIsNoSkipAfterThirtyIsOne() throws {
        var l = Listener()
        try l.add([Self.a, Self.b, track("C", seconds: 100)])
        l.listen(1)
        l.act { $0.next(now: $1, position: $2) }
        #expect(l.h.nowPlaying == "B")
        #expect(l.counts.isEmpty)
        l.listen(30)
        l.act { $0.next(now: $1, position: $2) }
        #expect(l.h.nowPlaying == "C")
        #expect(l.counts == [Self.skip(Self.b)])
    }

    @Test func aLongTrackIsAPlayAfterFourMinutes() throws {
        var l = Listener()
        let long = track("L", seconds: 1200)
        try l.add([long, Self.b])
        l.listen(239)
        #expect(l.counts.isEmpty)
        l.listen(1)
        #expect(l.counts == [Self.play(long)])
        // Leaving a visit that counted as a play counts nothing more.
        l.act { $0.next(now: $1, position: $2) }
        #expect(l.counts == [Self.play(long)])
    }

    @Test func jumpAndRemoveSkipButPreviousAndStopDoNot() throws {
        var l = Listener()
        try l.add([Self.a, Self.b, track("C", seconds: 100), track("D", seconds: 100)])
        l.listen(10)
        try l.act { try $0.jump(index: 2, now: $1, position: $2) }
        #expect(l.counts == [Self.skip(Self.a)])
        l.listen(10)
        try l.act { try $0.remove(index: 2, now: $1, position: $2) }
        #expect(l.h.nowPlaying == "D")
        #expect(l.counts.map(\.kind) == [.skip, .skip])
        l.listen(2.5)
        l.act { $0.previous(now: $1, position: $2) }
        #expect(l.h.nowPlaying == "B")
        l.listen(10)
        l.act { $0.stop(now: $1, position: $2) }
        #expect(l.counts.count == 2)
    }

    @Test func theSeekOfAHoldWhoseTickCameLateIsNotHeard() throws {
        var l = Listener()
        try l.add([Self.a, Self.b])
        l.listen(3)
        l.act { $0.press(.next, now: $1, position: $2) }
        // Released 500 ms later with no tick in between: one seek of 0.8 s stands for the scan.
        l.h.clock.advance(.milliseconds(500))
        try l.act { try $0.release(.next, now: $1, position: $2).output }
        #expect(abs(l.h.position - 3.8) < 1e-9)
        l.listen(1)
        #expect(l.h.engine.listeningTally.map { abs($0.heard - 4) < 1e-9 } == true)
    }

    @Test func aPositionReachedByAScanIsNotHeard() throws {
        var l = Listener()
        try l.add([Self.a, Self.b])
        l.listen(1)
        l.act { $0.press(.next, now: $1, position: $2) }
        l.h.clock.advance(.milliseconds(400))
        l.act { $0.tick(now: $1, position: $2) }
        #expect(l.h.status.seeking == .forward)
        // Four times real time: 60 s of the track pass in 15 s.
        l.listen(15)
        try l.act { try $0.release(.next, now: $1, position: $2).output }
        #expect(l.h.position > 55)
        l.listen(2)
        #expect((l.h.engine.listeningTally?.heard ?? 99) < 4)
        #expect(l.counts.isEmpty)
    }
}
