import Foundation
import Testing

@testable import QPlayProtocol

/// A track's plays, skips, last play, rating and first sighting: the hand-written
/// encoder writes JSONEncoder's bytes, the client's reader reads what JSONDecoder reads.
@Suite struct TrackFiguresWireTests {
    static let rated = Track(
        id: 12, path: "a/b.flac", title: "B", duration: 200, format: "flac", plays: 3, skips: 1,
        lastPlayed: "2026-11-28T10:15:02+01:00", rating: 4, added: "2026-11-01T08:00:00+01:00")

    @Test func encodedLikeJSONEncoder() throws {
        var never = Self.rated
        never.lastPlayed = nil
        never.plays = 0
        never.rating = 0
        for track in [Self.rated, never, sampleTrack] {
            let expected = try WireCoding.bytes(track) + [10]
            let fast = try #require(WireCoding.fastLine(track.write))
            #expect(String(decoding: fast, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
        let text = String(decoding: WireCoding.fastLine(Self.rated.write)!, as: UTF8.self)
        #expect(text.contains(#""last_played":"2026-11-28T10:15:02+01:00""#))
        #expect(text.contains(#""plays":3,"rating":4"#))
        #expect(text.contains(#""skips":1"#))
        #expect(text.hasPrefix(#"{"added":"2026-11-01T08:00:00+01:00","album":null"#))
    }

    @Test func readLikeJSONDecoder() throws {
        let line = String(decoding: WireCoding.line(Self.rated).dropLast(), as: UTF8.self)
        let value = try #require(JSONInput.value(from: Array(line.utf8), complete: true))
        let fast = try #require(Track(wire: value))
        #expect(fast == Self.rated)
        #expect(try WireCoding.decode(Track.self, from: Array(line.utf8)) == Self.rated)
        // A daemon from before the figures: the keys are absent, read as nil.
        let old = #"{"id":1,"path":"x.mp3","title":"X"}"#
        let oldValue = try #require(JSONInput.value(from: Array(old.utf8), complete: true))
        #expect(Track(wire: oldValue)?.plays == nil)
        #expect(try WireCoding.decode(Track.self, from: Array(old.utf8)).rating == nil)
    }

    @Test func rateCommandRoundTrips() throws {
        #expect(Command.names.contains("rate"))
        #expect(Command.rate(track: nil, stars: 5).arguments == ["stars": .integer(5)])
        #expect(Command.rate(track: 7, stars: 0).arguments == ["stars": .integer(0), "track": .integer(7)])
        let parsed = try Command.parse(name: "rate", args: .object(["stars": .integer(3), "track": .integer(9)]))
        #expect(parsed == .rate(track: 9, stars: 3))
        for bad: JSONValue in [.object(["stars": .integer(6)]), .object(["stars": .integer(-1)]), .object([:])] {
            #expect(throws: ProtocolError.self) { try Command.parse(name: "rate", args: bad) }
        }
    }
}
