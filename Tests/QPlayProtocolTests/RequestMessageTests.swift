import Testing

@testable import QPlayProtocol

/// What a request that is wrong in a small way is told: NUL characters, numbers out of
/// range, duplicate keys; and ids echoed exactly as written.
@Suite("Request messages")
struct RequestMessageTests {
    private func message(_ line: String) -> String? {
        if case .failure(let error) = Request.decode(line: Array(line.utf8)) {
            #expect(error.error.code == .badRequest, "\(line)")
            return error.error.message
        }
        return nil
    }

    static let nulArguments: [(String, String)] = [
        (#"{"cmd":"add","args":{"paths":["track01.mp3\u0000../../etc/passwd"]}}"#, "add: each of `paths`"),
        (#"{"cmd":"update","args":{"path":"\u0000"}}"#, "update: `path`"),
        (#"{"cmd":"search","args":{"where":[{"property":"title","op":"contains","value":"a\u0000b"}]}}"#,
         "search: predicate `value`"),
        (#"{"cmd":"add","args":{"where":[{"property":"path","op":"equals","value":"\u0000"}]}}"#,
         "add: predicate `value`"),
        (#"{"id":"a\u0000","cmd":"ping"}"#, "`id`"),
    ]

    @Test(arguments: nulArguments)
    func nulInAStringIsABadRequestNamingTheArgument(_ line: String, _ argument: String) {
        let text = message(line)
        #expect(text?.hasPrefix(argument) == true, "\(text ?? "accepted")")
        #expect(text?.contains("must not contain a NUL character") == true, "\(text ?? "accepted")")
    }

    @Test func numbersOutOfRangeSayTheRangeAndTheValue() {
        #expect(
            message(#"{"cmd":"volume","args":{"set":1e20}}"#)
                == "volume: `set` must be a whole number from 0 to 100, got 1e+20")
        #expect(
            message(#"{"cmd":"volume","args":{"delta":2.5}}"#)
                == "volume: `delta` must be a whole number from -100 to 100, got 2.5")
        #expect(message(#"{"cmd":"volume","args":{"set":"x"}}"#) == "volume: `set` must be a whole number from 0 to 100, got a string")
        #expect(
            message(#"{"cmd":"jump","args":{"index":-1}}"#)
                == "jump: `index` is a 0-based index, a whole number from 0 up; got -1")
        #expect(message(#"{"cmd":"jump","args":{"index":1.5}}"#)?.contains("got 1.5") == true)
        #expect(message(#"{"cmd":"jump","args":{"entry":1e30}}"#)?.contains("got 1e+30") == true)
        #expect(message(#"{"cmd":"add","args":{"ids":[1,2.5]}}"#)?.hasSuffix("got 2.5") == true)
    }

    @Test func aHugeIndexIsReadAndLeftToTheQueue() throws {
        // Whether an entry stands there is for the queue to say (not_found, with its length).
        let request = try Request.decode(line: Array(#"{"cmd":"jump","args":{"index":9223372036854775807}}"#.utf8)).get()
        #expect(request.command == .jump(.index(Int.max)))
    }

    static let idSpellings = [
        "123456789012345678901234567890", "1.0", "-0", "1e3", "1E+3", "0.1", "-12.5e-7", "9223372036854775808",
        "9223372036854775807", "-9223372036854775808", "42",
    ]

    @Test(arguments: idSpellings)
    func numberIdsEchoAsWritten(_ spelling: String) throws {
        let request = try Request.decode(line: Array(#"{"id":\#(spelling),"cmd":"ping"}"#.utf8)).get()
        let answer = String(decoding: Response.empty.encodedLine(id: request.id), as: UTF8.self)
        #expect(answer == #"{"id":\#(spelling),"ok":true,"result":{}}"# + "\n")
        let refusal = String(
            decoding: Response.failure(.badRequest("x\u{1}")).encodedLine(id: request.id), as: UTF8.self)
        #expect(refusal.contains(#""id":\#(spelling),"ok":false"#), "\(refusal)")
    }

    @Test func anIdsWithControlCharactersStillEchoes() throws {
        let request = try Request.decode(line: Array(#"{"id":"a\tb","cmd":"ping"}"#.utf8)).get()
        #expect(request.id == .string("a\tb"))
        let answer = String(decoding: Response.empty.encodedLine(id: request.id), as: UTF8.self)
        #expect(answer == #"{"id":"a\tb","ok":true,"result":{}}"# + "\n")
    }

    @Test func duplicateKeysAreBadRequestsNamingTheKey() {
        #expect(
            message(#"{"cmd":"ping","cmd":"status"}"#)
                == "the request has the key `cmd` twice; a key may appear only once")
        #expect(message(#"{"id":1,"cmd":"ping","\u0063md":"status"}"#)?.contains("key `cmd` twice") == true)
        #expect(message(#"{"id":1,"id":2,"cmd":"ping"}"#)?.contains("key `id` twice") == true)
        #expect(
            message(#"{"cmd":"update","args":{"path":"a","path":"b"}}"#)
                == "`args` has the key `path` twice; a key may appear only once")
        #expect(
            message(#"{"cmd":"search","args":{"where":[{"property":"title","op":"contains","value":"a","value":"b"}]}}"#)
                == "`where` has the key `value` twice; a key may appear only once")
        // Equal keys in different objects are fine.
        #expect(message(#"{"cmd":"search","args":{"where":[{"property":"title","op":"contains","value":"a"},{"property":"title","op":"contains","value":"b"}]}}"#) == nil)
    }

    /// Lines on both sides of the fast reader's subset: it and JSONDecoder must come to
    /// the same request or the same error.
    static let agreementLines = [
        #"{"cmd":"ping","cmd":"status"}"#, #"{"id":1,"cmd":"ping","cmd":"ping"}"#,
        #"{"cmd":"update","args":{"path":"a","path":"b"}}"#, #"{"cmd":"update","args":{"path":"\u0000"}}"#,
        #"{"cmd":"add","args":{"paths":["track01.mp3\u0000../../etc/passwd"]}}"#,
        #"{"cmd":"volume","args":{"set":1e20}}"#, #"{"cmd":"volume","args":{"set":100}}"#,
        #"{"cmd":"volume","args":{"set":101}}"#, #"{"cmd":"volume","args":{"set":50.0}}"#,
        #"{"cmd":"jump","args":{"index":9223372036854775807}}"#, #"{"cmd":"jump","args":{"index":-1}}"#,
        #"{"cmd":"jump","args":{"index":3}}"#, #"{"id":123456789012345678901234567890,"cmd":"ping"}"#,
        #"{"id":12345,"cmd":"ping"}"#, #"{"id":"x","cmd":"status"}"#, #"{"id":1.5,"cmd":"ping"}"#,
        #"{"id":-0,"cmd":"ping"}"#, #"{"cmd":"seek","args":{"delta":-10}}"#, #"{"cmd":"nope"}"#,
        #"{"cmd":"add","args":{"ids":[1,2,3]}}"#, #"{"cmd":"add","args":{"ids":[1e3]}}"#, "[]", "{",
    ]

    @Test func deepNestingIsRefusedWithoutCrashing() {
        for depth in [100, 511, 5000] {
            let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let line = #"{"cmd":"ping","args":{"x":"# + nested + "}}"
            #expect(message(line) != nil, "depth \(depth)")
            let bytes = Array(line.utf8)
            #expect(Request.decode(line: bytes, quickly: true) == Request.decode(line: bytes, quickly: false))
        }
    }

    @Test(arguments: agreementLines)
    func fastReaderAndJSONDecoderAgree(_ line: String) {
        let bytes = Array(line.utf8)
        #expect(Request.decode(line: bytes, quickly: true) == Request.decode(line: bytes, quickly: false))
    }
}

@Suite("Status format templates")
struct StatusFormatTemplateTests {
    @Test func unknownPlaceholdersAndStrayBracesAreErrors() {
        #expect(throws: StatusFormat.TemplateError.unknownPlaceholder("unknown")) {
            try StatusFormat.validate("{unknown}")
        }
        #expect(throws: StatusFormat.TemplateError.unclosedBrace(at: 1)) { try StatusFormat.validate("{") }
        #expect(throws: StatusFormat.TemplateError.unclosedBrace(at: 9)) { try StatusFormat.validate("{title} {artist") }
        #expect(throws: StatusFormat.TemplateError.strayClosingBrace(at: 1)) { try StatusFormat.validate("}") }
        #expect(throws: StatusFormat.TemplateError.strayClosingBrace(at: 5)) { try StatusFormat.validate("a }}}") }
        #expect(throws: StatusFormat.TemplateError.unknownPlaceholder("")) { try StatusFormat.validate("{}") }
        #expect("\(StatusFormat.TemplateError.unknownPlaceholder("x"))".contains("{title}"))
    }

    @Test func doubledBracesAreLiteral() throws {
        try StatusFormat.validate("{{}}")
        try StatusFormat.validate("}}")
        try StatusFormat.validate("{{title}} {title}")
        let status = Status(
            state: .playing, track: Track(id: 1, path: "a.mp3", title: "Song"), position: 1, duration: 2, output: .init(name: "null"))
        #expect(StatusFormat.render("{{title}} {title} }}", status: status) == "{title} Song }")
    }
}
