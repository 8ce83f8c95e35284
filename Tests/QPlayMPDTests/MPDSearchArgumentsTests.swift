import QPlayMPD
import Testing

@Suite struct MPDSearchArgumentsTests {
    func parse(
        _ arguments: [String], oldStyle: MPDFilterOperator = .equals, tails: MPDSearchTails = .findAndSearch,
        allowsEmpty: Bool = false
    ) throws(MPDError) -> MPDSearchArguments {
        try MPDSearchArguments.parse(arguments[...], oldStyle: oldStyle, tails: tails, allowsEmptyFilter: allowsEmpty)
    }

    func filter(_ expression: String) throws(MPDError) -> MPDFilter { try parse([expression]).filter }

    func message(_ arguments: [String], tails: MPDSearchTails = .findAndSearch) -> String? {
        do {
            _ = try parse(arguments, tails: tails)
            return nil
        } catch {
            #expect(error.code == .argument)
            return error.message
        }
    }

    @Test func oldPairsJoinWithAndUsingTheCommandsOperator() throws {
        #expect(try parse(["artist", "x"]).filter == .compare(.tag(.artist), .equals, "x"))
        #expect(try parse(["Artist", "x", "ALBUM", "y", "any", "z"], oldStyle: .contains).filter == .and([
            .compare(.tag(.artist), .contains, "x"), .compare(.tag(.album), .contains, "y"),
            .compare(.any, .contains, "z"),
        ]))
        #expect(try parse(["file", "a/b.mp3"]).filter == .compare(.file, .equals, "a/b.mp3"))
        #expect(try parse(["filename", "a"]).filter == .compare(.file, .equals, "a"))
        #expect(try parse(["base", "Rock/Live"], oldStyle: .contains).filter == .compare(.base, .equals, "Rock/Live"))
    }

    @Test func oldPairsFailAsInMPD() {
        #expect(message(["foo", "bar"]) == "Unknown filter type")
        #expect(message(["artist"]) == "Incorrect number of filter arguments")
        #expect(message(["artist", "x", "album"]) == "Incorrect number of filter arguments")
        #expect(message([]) == "Incorrect number of filter arguments")
        #expect(message(["Base", "x"]) == "Unknown filter type")
        for path in ["../x", "", "/abs", "a//b", "a/", "a/./b", "."] {
            #expect(message(["base", path]) == "Bad URI", "\(path)")
        }
    }

    @Test func expressions() throws {
        #expect(try filter("(Artist == 'x')") == .compare(.tag(.artist), .equals, "x"))
        #expect(try filter(#"(title contains "love")"#) == .compare(.tag(.title), .contains, "love"))
        #expect(try filter("(title CONTAINS 'love')") == .compare(.tag(.title), .contains, "love"))
        #expect(try filter("(genre != 'Pop')") == .compare(.tag(.genre), .notEquals, "Pop"))
        #expect(try filter("(title !contains 'x')") == .not(.compare(.tag(.title), .contains, "x")))
        #expect(try filter("(title starts_with 'The')") == .compare(.tag(.title), .startsWith, "The"))
        #expect(try filter("(title =~ '^a.*')") == .compare(.tag(.title), .regex, "^a.*"))
        #expect(try filter("(title !~ 'b$')") == .compare(.tag(.title), .notRegex, "b$"))
        #expect(try filter("(any == 'x')") == .compare(.any, .equals, "x"))
        #expect(try filter("(FILE == 'a/b.flac')") == .compare(.file, .equals, "a/b.flac"))
        #expect(try filter("(base 'Rock')") == .compare(.base, .equals, "Rock"))
        #expect(try filter("(  albumartist   ==   'x'  )") == .compare(.tag(.albumArtist), .equals, "x"))
    }

    @Test func nestedNegatedAndChains() throws {
        let a = MPDFilter.compare(.tag(.artist), .equals, "a")
        let b = MPDFilter.compare(.tag(.album), .equals, "b")
        let c = MPDFilter.compare(.tag(.date), .equals, "1999")
        #expect(try filter("((artist == 'a') AND (album == 'b'))") == .and([a, b]))
        #expect(try filter("((artist == 'a') AND (album == 'b') AND (date == '1999'))") == .and([a, b, c]))
        #expect(try filter("(!(artist == 'a'))") == .not(a))
        #expect(try filter("(! (artist == 'a') )") == .not(a))
        #expect(try filter("((artist == 'a'))") == a)
        #expect(try filter("((!(artist == 'a')) AND ((album == 'b') AND (date == '1999')))") == .and([.not(a), .and([b, c])]))
        // Expressions and old pairs mix; everything is joined with AND.
        #expect(try parse(["(artist == 'a')", "album", "b"]).filter == .and([a, b]))
    }

    @Test func escapesInsideValues() throws {
        #expect(try filter(#"(artist == 'it\'s')"#) == .compare(.tag(.artist), .equals, "it's"))
        #expect(try filter(#"(artist == "say \"hi\"")"#) == .compare(.tag(.artist), .equals, #"say "hi""#))
        #expect(try filter(#"(artist == 'a\\b')"#) == .compare(.tag(.artist), .equals, #"a\b"#))
        #expect(try filter(#"(artist == "it's")"#) == .compare(.tag(.artist), .equals, "it's"))
        #expect(try filter("(artist == 'Björk (live)')") == .compare(.tag(.artist), .equals, "Björk (live)"))
    }

    /// Each message checked against MPD 0.23.
    @Test func badExpressionsGetMPDsMessages() {
        let cases = [
            ("(foo == 'x')", "Unknown filter type: foo"), ("(artist = 'x')", "'==' or '!=' expected"),
            ("(artist == x)", "Quoted string expected"), ("(artist == 'x'", "')' expected"),
            ("(artist == 'x", "Closing quote not found"), (#"(artist == 'x\"#, "Closing quote not found"),
            ("((artist == 'x')) ", "Unparsed garbage after expression"),
            ("(artist == 'x')x", "Unparsed garbage after expression"),
            ("((artist == 'x') and (album == 'y'))", "'AND' expected"),
            ("((artist == 'x') AND)", "Word expected"), ("((artist == 'x') (album == 'y'))", "Word expected"),
            ("(artist contains'x')", "'==' or '!=' expected"), ("(BASE 'x')", "Unknown filter type: BASE"),
            ("(base == 'x')", "Quoted string expected"), ("()", "Word expected"), ("(1)", "Word expected"),
            ("(!artist == 'x')", "'(' expected"), ("(!(artist == 'x')", "')' expected"), ("(", "Word expected"),
            ("(modified-since '0')", "Unknown filter type: modified-since"),
            ("(artist == '" + String(repeating: "v", count: 4096) + "')", "Quoted value is too long"),
        ]
        for (expression, expected) in cases {
            #expect(message([expression]) == expected, "\(expression)")
        }
    }

    @Test func longestValueMPDTakes() throws {
        let value = String(repeating: "v", count: 4095)
        #expect(try filter("(artist == '\(value)')") == .compare(.tag(.artist), .equals, value))
    }

    @Test func sortAndWindowTails() throws {
        let parsed = try parse(["artist", "x", "sort", "-Title", "window", "0:2"])
        #expect(parsed.filter == .compare(.tag(.artist), .equals, "x"))
        #expect(parsed.sort == "-Title")
        #expect(parsed.window == MPDRange(start: 0, end: 2))
        #expect(try parse(["artist", "x", "sort", "last-modified"]).sort == "last-modified")
        #expect(message(["artist", "x", "sort", "foo"]) == "Unknown sort tag")
        #expect(message(["artist", "x", "window", "x"]) == "Integer or range expected: x")
        // Window comes last; after sort it is read as part of the filter.
        #expect(message(["artist", "x", "window", "0:2", "sort", "title"]) == "Unknown filter type")
        #expect(message(["sort", "title"]) == "Incorrect number of filter arguments")
    }

    @Test func groupTails() throws {
        let parsed = try parse(["artist", "x", "group", "album", "group", "date"], tails: .group)
        #expect(parsed.group == [.album, .date])
        #expect(try parse(["group", "Genre"], tails: .group, allowsEmpty: true)
            == MPDSearchArguments(filter: .and([]), group: [.genre]))
        #expect(message(["artist", "x", "group", "foo"], tails: .group) == "Unknown tag type: foo")
        #expect(message(["group", "album", "group", "album"], tails: .group) == "Conflicting group")
        // Tails a command does not take are filter arguments.
        #expect(message(["artist", "x", "group", "album"]) == "Unknown filter type")
        #expect(message(["artist", "x", "sort", "title"], tails: .group) == "Unknown filter type")
    }

    @Test func tagNamesIgnoreCase() {
        #expect(MPDTag.named("albumartist") == .albumArtist)
        #expect(MPDTag.named("DATE") == .date)
        #expect(MPDTag.named("Composer") == nil)
        #expect(MPDTag.allCases.map(\.rawValue)
            == ["Artist", "Album", "AlbumArtist", "Title", "Track", "Disc", "Date", "Genre"])
    }
}

@Suite struct MPDFilterExpressionTests {
    @Test func aFilterWrittenAsAnExpressionParsesBack() throws {
        let filters: [MPDFilter] = [
            .compare(.tag(.artist), .equals, #"it's "quoted" \ back"#),
            .compare(.any, .contains, "x"), .compare(.file, .startsWith, "Rock/"),
            .compare(.tag(.title), .regex, "^a.*b$"), .compare(.tag(.genre), .notRegex, "Pop"),
            .compare(.base, .equals, "Jazz/Live"),
            .not(.and([.compare(.tag(.date), .notEquals, "1999"), .not(.compare(.tag(.disc), .equals, "1"))])),
            // An expression and old-style pairs in one search: an AND inside an AND.
            .and([
                .and([.compare(.tag(.title), .contains, "love"), .not(.compare(.tag(.genre), .equals, "Pop"))]),
                .compare(.tag(.artist), .equals, "xf"),
            ]),
        ]
        for filter in filters {
            let expression = try #require(filter.expression)
            #expect(try MPDSearchArguments.parse([expression], oldStyle: .equals).filter == filter, "\(expression)")
        }
        #expect(MPDFilter.compare(.tag(.artist), .equals, "x").expression == #"(Artist == "x")"#)
    }

    @Test func filtersWithoutAnExpression() {
        #expect(MPDFilter.and([]).expression == nil)
        #expect(MPDFilter.and([.compare(.any, .equals, "x")]).expression == nil)
        #expect(MPDFilter.compare(.base, .contains, "x").expression == nil)
    }
}
