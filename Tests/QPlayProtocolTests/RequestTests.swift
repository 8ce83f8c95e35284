import Foundation
import QPlayProtocol
import Testing

private func decode(_ text: String) -> Result<Request, RequestDecodingError> {
    Request.decode(line: Array(text.utf8))
}

private func command(_ text: String) throws -> Command {
    try decode(text).get().command
}

private func failure(_ text: String) -> RequestDecodingError? {
    if case .failure(let error) = decode(text) { return error }
    return nil
}

@Suite("Requests")
struct RequestTests {
    static let everyCommand: [Command] = [
        .ping, .status, .stats, .search(where: [Predicate(.artist, .equals, "Beyoncé")], limit: 5),
        .search(where: [], limit: nil), .add(.query([Predicate(.title, .contains, "love")])), .add(.ids([1, 2])),
        .add(.paths(["a/b.mp3"])), .queue(.all), .queue(.range(start: 5, count: 10)), .queue(.around(20)),
        .remove(.entry(4)), .remove(.index(0)), .jump(.index(3)),
        .jump(.entry(9)), .move(from: 1, to: 0), .clear, .play, .pause, .toggle, .stop, .next, .previous,
        .press(.next), .release(.previous), .seek(.position(90)), .seek(.delta(-10)), .volume(.set(80)),
        .volume(.delta(-5)), .mode(repeat: .one, shuffle: nil), .mode(repeat: nil, shuffle: true),
        .mode(repeat: .all, shuffle: false), .update(path: nil, wait: false), .update(path: "Rock", wait: true),
        .subscribe([.player]), .subscribe(Set(EventKind.allCases)),
        .sleep(.after(1800)), .sleep(.endOfTrack), .sleep(.cancel), .alarmList, .alarmRemove(3),
        .alarmAdd(AlarmRequest(time: "07:00")),
        .alarmAdd(
            AlarmRequest(
                time: "06:30:15", days: ["mon", "fri"], selection: .query([Predicate(.album, .contains, "dawn")]),
                volume: 40, fadeIn: 30)),
        .alarmAdd(AlarmRequest(time: "22:00", selection: .ids([4, 2]), fadeIn: 2.5)),
        .bookmarkAdd(name: nil), .bookmarkAdd(name: "Kapitel 2 – Ende"), .bookmarkList(track: nil),
        .bookmarkList(track: 7), .bookmarkList(track: nil, start: 2000, count: 10), .bookmarkJump(3), .bookmarkRemove(4),
        .art(track: nil, offset: 0), .art(track: 12, offset: 1 << 20),
        .chapter(.index(0)), .chapter(.index(41)), .chapter(.step(1)), .chapter(.step(-1)),
        .rate(track: nil, stars: 4), .rate(track: 42, stars: 0),
        .playlist(.list), .playlist(.show(name: "Road trip")), .playlist(.save(name: "a", mode: .create)),
        .playlist(.save(name: "a", mode: .append)), .playlist(.load(name: "a", position: nil)),
        .playlist(.load(name: "a", position: 3)), .playlist(.add(name: "a", source: .ids([4, 2]))),
        .playlist(.add(name: "a", source: .paths(["x/y.mp3"]))),
        .playlist(.add(name: "a", source: .query([Predicate(.album, .contains, "dawn")]))),
        .playlist(.remove(name: "a", positions: [3, 0])), .playlist(.move(name: "a", from: 2, to: 0)),
        .playlist(.rename(name: "a", to: "b")), .playlist(.delete(name: "b")),
        .playlist(.smartSave(name: "Top", rule: SmartPlaylistRule(where: []))),
        .playlist(
            .smartSave(
                name: "Old",
                rule: SmartPlaylistRule(
                    where: [Predicate(.lastPlayed, .before, "90d"), Predicate(.rating, .ge, "4")], sort: .random,
                    order: .ascending, limit: 100))),
    ]

    @Test(arguments: everyCommand)
    func everyCommandRoundTrips(_ command: Command) throws {
        let line = Request(id: .integer(3), command).encodedLine()
        #expect(line.last == 10)
        let decoded = try Request.decode(line: line.dropLast()).get()
        #expect(decoded == Request(id: .integer(3), command))
    }

    @Test func everyNameIsKnown() {
        #expect(Set(Self.everyCommand.map(\.name)) == Set(Command.names))
    }

    @Test func idsAreNumbersOrStringsOrAbsent() throws {
        #expect(try decode(#"{"id":"abc","cmd":"ping"}"#).get().id == .string("abc"))
        #expect(try decode(#"{"id":12,"cmd":"ping"}"#).get().id == .integer(12))
        #expect(try decode(#"{"id":1.5,"cmd":"ping"}"#).get().id == .number("1.5"))
        #expect(try decode(#"{"cmd":"ping"}"#).get().id == nil)
        #expect(failure(#"{"id":true,"cmd":"ping"}"#)?.error.code == .badRequest)
        #expect(failure(#"{"id":[1],"cmd":"ping"}"#)?.error.code == .badRequest)
    }

    @Test func argsMayBeOmittedOrEmpty() throws {
        #expect(try command(#"{"id":1,"cmd":"status","args":{}}"#) == .status)
        #expect(try command(#"{"id":1,"cmd":"status"}"#) == .status)
        // Every kind but `level`, which a client must name.
        #expect(try command(#"{"id":1,"cmd":"subscribe"}"#) == .subscribe(Set(EventKind.allCases).subtracting([.level])))
        #expect(try command(#"{"id":1,"cmd":"subscribe","args":{"events":["level"]}}"#) == .subscribe([.level]))
    }

    @Test func malformedLinesAreBadRequests() {
        for line in ["", "nope", "[1]", "\"ping\"", #"{"id":1}"#, #"{"id":1,"cmd":5}"#, #"{"id":1,"cmd":"ping","extra":1}"#] {
            #expect(failure(line)?.error.code == .badRequest, "\(line)")
        }
        #expect(failure(#"{"id":1,"cmd":5}"#)?.id == .integer(1), "the id is kept when readable")
    }

    @Test func unknownCommandKeepsTheId() {
        let error = failure(#"{"id":"z","cmd":"dance"}"#)
        #expect(error?.error.code == .unknownCommand)
        #expect(error?.id == .string("z"))
        #expect(error?.error.message.contains("dance") == true)
    }

    static let badArguments: [(String, String)] = [
        (#"{"cmd":"ping","args":{"x":1}}"#, "unknown argument `x`"),
        (#"{"cmd":"ping","args":[1]}"#, "`args` must be an object"),
        (#"{"cmd":"seek","args":{}}"#, "needs `position` or `delta`"),
        (#"{"cmd":"seek","args":{"position":1,"delta":2}}"#, "only one of"),
        (#"{"cmd":"seek","args":{"position":"x"}}"#, "`position` must be a number"),
        (#"{"cmd":"seek","args":{"position":-1}}"#, "0 or more"),
        (#"{"cmd":"volume","args":{"set":101}}"#, "a whole number from 0 to 100, got 101"),
        (#"{"cmd":"volume","args":{"set":1.5}}"#, "whole number"),
        (#"{"cmd":"remove","args":{"index":-1}}"#, "0-based"),
        (#"{"cmd":"jump","args":{}}"#, "needs `entry` or `index`"),
        (#"{"cmd":"move","args":{"from":1}}"#, "needs `from` and `to`"),
        (#"{"cmd":"press","args":{"button":"play"}}"#, "\"next\" or \"previous\""),
        (#"{"cmd":"release","args":{}}"#, "needs `button`"),
        (#"{"cmd":"mode","args":{}}"#, "needs `repeat`"),
        (#"{"cmd":"mode","args":{"repeat":"twice"}}"#, "\"off\", \"one\" or \"all\""),
        (#"{"cmd":"mode","args":{"shuffle":"yes"}}"#, "true or false"),
        (#"{"cmd":"add","args":{}}"#, "needs `where` or `ids` or `paths`"),
        (#"{"cmd":"add","args":{"ids":[]}}"#, "at least one"),
        (#"{"cmd":"add","args":{"ids":["a"]}}"#, "track ids"),
        (#"{"cmd":"add","args":{"paths":[1]}}"#, "list of strings"),
        (#"{"cmd":"add","args":{"where":{}}}"#, "`where` must be a list"),
        (#"{"cmd":"search","args":{"where":[{"property":"mood","op":"equals","value":"x"}]}}"#, "property"),
        (#"{"cmd":"search","args":{"where":[{"property":"title","op":"like","value":"x"}]}}"#, "`op`"),
        (#"{"cmd":"search","args":{"where":[{"property":"title","op":"equals"}]}}"#, "`value`"),
        (#"{"cmd":"search","args":{"where":[{"property":"title","op":"equals","value":"x","z":1}]}}"#, "`z`"),
        (#"{"cmd":"search","args":{"limit":0}}"#, "from 1 to 2147483647, got 0"),
        (#"{"cmd":"update","args":{"wait":"yes"}}"#, "true or false"),
        (#"{"cmd":"subscribe","args":{"events":[]}}"#, "at least one"),
        (#"{"cmd":"subscribe","args":{"events":["weather"]}}"#, "\"player\""),
        (#"{"cmd":"bookmark_jump"}"#, "needs `bookmark`"),
        (#"{"cmd":"bookmark_remove","args":{"bookmark":"one"}}"#, "bookmark"),
        (#"{"cmd":"bookmark_add","args":{"name":3}}"#, "name"),
        (#"{"cmd":"bookmark_list","args":{"entry":3}}"#, "entry"),
        (#"{"cmd":"chapter"}"#, "needs `index` or `step`"),
        (#"{"cmd":"chapter","args":{"index":1,"step":1}}"#, "only one of"),
        (#"{"cmd":"chapter","args":{"step":2}}"#, "must be 1 or -1, got 2"),
        (#"{"cmd":"chapter","args":{"index":-1}}"#, "from 0 to 2147483647"),
        (#"{"cmd":"chapter","args":{"title":"x"}}"#, "title"),
    ]

    @Test(arguments: badArguments)
    func badArgumentsSayWhatIsWrong(_ line: String, _ fragment: String) {
        let error = failure(line)?.error
        #expect(error?.code == .badRequest)
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "no error")")
    }

    @Test func wholeNumbersMayBeWrittenWithAFraction() throws {
        #expect(try command(#"{"cmd":"volume","args":{"set":50.0}}"#) == .volume(.set(50)))
        #expect(try command(#"{"cmd":"seek","args":{"delta":-2.5}}"#) == .seek(.delta(-2.5)))
    }

    @Test func predicatesDecode() throws {
        let decoded = try command(
            #"{"cmd":"search","args":{"where":[{"property":"album_artist","op":"equals","value":"X"},{"property":"path","op":"contains","value":"/"}]}}"#
        )
        #expect(decoded == .search(where: [Predicate(.albumArtist, .equals, "X"), Predicate(.path, .contains, "/")], limit: nil))
    }

    @Test func figurePredicatesDecodeAndEncode() throws {
        let decoded = try command(
            #"{"cmd":"search","args":{"where":[{"property":"rating","op":"ge","value":4},{"property":"plays","op":"eq","value":0.0},{"property":"last_played","op":"before","value":"90d"},{"property":"added","op":"within","value":"4w"}]}}"#
        )
        let predicates = [
            Predicate(.rating, .ge, "4"), Predicate(.plays, .eq, "0"), Predicate(.lastPlayed, .before, "90d"),
            Predicate(.added, .within, "4w"),
        ]
        #expect(decoded == .search(where: predicates, limit: nil))
        #expect(predicates[2].ageSeconds == 90 * 86_400 && predicates[3].ageSeconds == 4 * 604_800)
        // A count goes back on the wire as a number, in requests and in stored alarms alike.
        let line = String(decoding: try JSONEncoder().encode(predicates[0]), as: UTF8.self)
        #expect(line.contains(#""value":4"#), "\(line)")
        #expect(try JSONDecoder().decode(Predicate.self, from: Data(line.utf8)) == predicates[0])
    }

    @Test(arguments: [
        (#"{"property":"rating","op":"contains","value":"4"}"#, "`op` for rating must be \"eq\", \"lt\", \"gt\", \"le\" or \"ge\""),
        (#"{"property":"plays","op":"eq","value":"4"}"#, "must be a whole number"),
        (#"{"property":"plays","op":"eq","value":-1}"#, "must be a whole number"),
        (#"{"property":"skips","op":"gt","value":2.5}"#, "must be a whole number"),
        (#"{"property":"added","op":"within","value":30}"#, "must be an age like"),
        (#"{"property":"added","op":"within","value":"30y"}"#, "must be an age like"),
        (#"{"property":"last_played","op":"ge","value":"30d"}"#, "`op` for last_played must be \"within\" or \"before\""),
        (#"{"property":"title","op":"ge","value":"x"}"#, "`op` for title must be \"contains\" or \"equals\""),
    ])
    func badFigurePredicatesAreNamed(predicate: String, message: String) throws {
        let result = decode(#"{"cmd":"search","args":{"where":["# + predicate + "]}}")
        guard case .failure(let error) = result else {
            Issue.record("\(predicate) decoded")
            return
        }
        #expect("\(error)".contains(message), "\(error)")
    }
}
