import QPlayMPD
import QPlayTestSupport
import Testing

@Suite struct MPDRequestParserTests {
    func parse(_ line: String) throws(MPDError) -> MPDRequest { try MPDRequestParser.parse(Array(line.utf8)) }

    func failure(_ line: String) -> MPDError? {
        do {
            _ = try parse(line)
            return nil
        } catch { return error }
    }

    @Test func splitsNameAndArguments() throws {
        #expect(try parse("status") == MPDRequest(name: "status", arguments: []))
        #expect(try parse("play 3") == MPDRequest(name: "play", arguments: ["3"]))
        #expect(try parse("find  artist   x") == MPDRequest(name: "find", arguments: ["artist", "x"]))
        #expect(try parse("list_all_2") == MPDRequest(name: "list_all_2", arguments: []))
    }

    @Test func tabsAndControlCharactersSeparateLikeSpaces() throws {
        #expect(try parse("add\t\"a b\"\tc") == MPDRequest(name: "add", arguments: ["a b", "c"]))
        #expect(try parse("seek\u{0B}1 2") == MPDRequest(name: "seek", arguments: ["1", "2"]))
    }

    @Test func trailingBlanksAndCarriageReturnAreDropped() throws {
        #expect(try parse("status\r") == MPDRequest(name: "status", arguments: []))
        #expect(try parse("play 1 \t \r") == MPDRequest(name: "play", arguments: ["1"]))
    }

    @Test func aNulEndsTheLineAsInMPD() throws {
        #expect(try MPDRequestParser.parse(Array("play 1\u{0}2 3".utf8)) == MPDRequest(name: "play", arguments: ["1"]))
    }

    @Test func quotedArgumentsKeepBlanksAndUnescape() throws {
        #expect(try parse(#"add "My Music/a b.mp3""#).arguments == ["My Music/a b.mp3"])
        #expect(try parse(#"find artist "say \"hi\"""#).arguments == ["artist", #"say "hi""#])
        #expect(try parse(#"find artist "back\\slash""#).arguments == ["artist", #"back\slash"#])
        // A backslash escapes any character; `\n` is the letter n.
        #expect(try parse(#"find artist "a\nb\'c""#).arguments == ["artist", "anb'c"])
        #expect(try parse(#"add """#).arguments == [""])
        #expect(try parse(#"add "" "" x"#).arguments == ["", "", "x"])
    }

    @Test func unquotedArgumentsMayHoldBackslashesAndParentheses() throws {
        #expect(try parse(#"add a\b(c)"#).arguments == [#"a\b(c)"#])
    }

    @Test func utf8PassesThrough() throws {
        #expect(try parse("find artist Björk").arguments == ["artist", "Björk"])
        #expect(try parse("find title \"東京 ♪\"").arguments == ["title", "東京 ♪"])
    }

    @Test func invalidUTF8BecomesReplacementCharacters() throws {
        let request = try MPDRequestParser.parse(Array("add ".utf8) + [0xFF, 0x41])
        #expect(request.arguments == ["\u{FFFD}A"])
    }

    @Test func mpdsMessagesForBadQuoting() {
        #expect(failure(#"ping "abc"#) == MPDError(.unknown, #"Missing closing '"'"#))
        #expect(failure(#"ping "abc\"#) == MPDError(.unknown, #"Missing closing '"'"#))
        #expect(failure(#"ping "a"b"#) == MPDError(.unknown, #"Space expected after closing '"'"#))
        #expect(failure(#"ping a"b"#) == MPDError(.unknown, "Invalid unquoted character"))
        #expect(failure("ping 'a'") == MPDError(.unknown, "Invalid unquoted character"))
    }

    @Test func aMalformedCommandWordIsAnsweredThenTheConnectionCloses() {
        #expect(failure("st!atus") == MPDError(.unknown, "Invalid word character", closing: .afterReply))
        #expect(failure("sta-tus x") == MPDError(.unknown, "Invalid word character", closing: .afterReply))
    }

    /// MPD looks for a lower-case letter first: anything else (an HTTP request, a
    /// shouting client) gets the connection closed without an answer.
    @Test func aLineNotStartingWithALowerCaseLetterClosesSilently() {
        for line in ["STATUS", "Status", " status", "", "   ", "1play", "\"status\"", "GET / HTTP/1.1"] {
            #expect(failure(line)?.closing == .withoutReply, "\(line)")
        }
    }

    /// MPD 0.23 takes 63 arguments and refuses 64.
    @Test func argumentsAreLimitedAsInMPD() throws {
        let many = "add" + String(repeating: " x", count: MPDRequestParser.maximumArguments)
        #expect(try parse(many).arguments.count == MPDRequestParser.maximumArguments)
        #expect(failure(many + " y") == MPDError(.argument, "Too many arguments"))
    }

    @Test func commandNamesAreNotLowercased() throws {
        #expect(try parse("sTATUS").name == "sTATUS")
    }

    /// What a client sends for any arguments comes back as those arguments.
    @Test func quotingRoundTripsRandomStrings() throws {
        var random = SeededRandom(seed: 0x5EED_0001)
        let alphabet: [Unicode.Scalar] = [
            "a", "Z", "0", " ", "\t", "\"", "\\", "'", "(", ")", ":", "\r", "\u{01}", "é", "東", "🎵", "\u{7F}",
        ]
        for _ in 0..<2000 {
            let arguments = (0..<Int(random.next() % 5)).map { _ in
                var text = String.UnicodeScalarView()
                for _ in 0..<Int(random.next() % 12) {
                    let pick = random.next()
                    text.append(pick % 4 == 0
                        ? Unicode.Scalar(UInt32(truncatingIfNeeded: pick >> 8) % 0xD000 + 1)!
                        : alphabet[Int(pick >> 8) % alphabet.count])
                }
                return String(text)
            }
            let line = MPDQuoting.line("cmd", arguments)
            #expect(try parse(line) == MPDRequest(name: "cmd", arguments: arguments), "\(line)")
        }
    }

    @Test func quotingEscapesOnlyQuoteAndBackslash() {
        #expect(MPDQuoting.quote(#"a "b" \c"#) == #""a \"b\" \\c""#)
        #expect(MPDQuoting.quote("") == "\"\"")
    }
}
