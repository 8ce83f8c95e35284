import Testing

@testable import QPlayDaemon

/// The config file's TOML parser: every kind of TOML 1.0 value and table reads as the
/// standard says, and every invalid document is an error at the line and column where
/// it goes wrong — never a crash (the C++ parser it replaced aborted on `[&]`).
@Suite struct TOMLParserTests {
    func parse(_ text: String) throws -> TOMLTable {
        try TOMLParser.parse(text)
    }

    func failure(_ text: String) -> TOMLSyntaxError? {
        do {
            _ = try TOMLParser.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func readsEveryKindOfValue() throws {
        let table = try parse(
            #"""
            # a comment
            basic = "tab\there \"quoted\" \u00E9\U0001F600" # after
            literal = 'C:\path\'
            multi = """
            one \
              two
            three""""
            raw = '''
            it's'''
            int = +1_000
            hex = 0xDEAD_beef
            oct = 0o755
            bin = 0b1010
            negative = -17
            float = 6.626e-34
            exponent = 1E+3
            special = [inf, -inf]
            yes = true
            no = false
            date = 1979-05-27T07:32:00.999-07:00
            spaced = 1979-05-27 07:32:00Z
            day = 1979-05-27
            time = 07:32:00
            nested = [ [1, 2], ["a", 'b'], ]
            inline = { x = 1, y.z = "deep" }
            "quoted key" = 1
            dotted . key = 2
            """#)
        #expect(table["basic"] == .string("tab\there \"quoted\" é😀"))
        #expect(table["literal"] == .string(#"C:\path\"#))
        #expect(table["multi"] == .string("one two\nthree\""))
        #expect(table["raw"] == .string("it's"))
        #expect(table["int"] == .integer(1000))
        #expect(table["hex"] == .integer(0xDEAD_BEEF))
        #expect(table["oct"] == .integer(0o755))
        #expect(table["bin"] == .integer(10))
        #expect(table["negative"] == .integer(-17))
        #expect(table["float"] == .float(6.626e-34))
        #expect(table["exponent"] == .float(1000))
        #expect(table["special"] == .array([.float(.infinity), .float(-.infinity)]))
        #expect(table["yes"] == .boolean(true) && table["no"] == .boolean(false))
        #expect(table["date"] == .dateTime("1979-05-27T07:32:00.999-07:00"))
        #expect(table["spaced"] == .dateTime("1979-05-27 07:32:00Z"))
        #expect(table["day"] == .dateTime("1979-05-27") && table["time"] == .dateTime("07:32:00"))
        #expect(table["nested"] == .array([.array([.integer(1), .integer(2)]), .array([.string("a"), .string("b")])]))
        guard case .table(let inline) = table["inline"], case .table(let y) = inline["y"] else {
            Issue.record("no inline table: \(String(describing: table["inline"]))")
            return
        }
        #expect(inline["x"] == .integer(1) && y["z"] == .string("deep"))
        #expect(table["quoted key"] == .integer(1))
        guard case .table(let dotted) = table["dotted"] else {
            Issue.record("no dotted table")
            return
        }
        #expect(dotted["key"] == .integer(2))
        #expect(table.keys.first == "basic" && table.keys.count == 22)
    }

    @Test func readsTablesAndArraysOfTables() throws {
        let table = try parse(
            """
            top = 1
            [server.alpha]
            ip = "10.0.0.1"
            [server]
            name = "s"
            [[fruit]]
            name = "apple"
            [fruit.variety]
            color = "red"
            [[fruit]]
            name = "banana"
            [fruit.physical]
            texture.smooth = true
            """)
        #expect(table.keys == ["top", "server", "fruit"])
        guard case .table(let server) = table["server"], case .array(let fruits) = table["fruit"] else {
            Issue.record("\(table)")
            return
        }
        #expect(server["name"] == .string("s"))
        #expect(server["alpha"] == .table(try parse(#"ip = "10.0.0.1""#)))
        #expect(fruits.count == 2)
        #expect(fruits[1] == .table(try parse("name = \"banana\"\nphysical = { texture = { smooth = true } }")))
        #expect(try parse("").keys.isEmpty)
        #expect(try parse("a = 1\r\nb = 2\r\n")["b"] == .integer(2))
    }

    /// Each invalid document, with where it goes wrong (line, column) and the reason's start.
    @Test(arguments: [
        ("[&]", 1, 2, "expected a key, found '&'"),
        ("key = [1, }]", 1, 11, "expected a value, found '}'"),
        ("[]", 1, 2, "expected a key"),
        ("[a", 1, 3, "expected ']'"),
        ("[[a]", 1, 5, "expected ']]'"),
        ("a = 1\n\nscan_rate = = 4", 3, 13, "expected a value, found '='"),
        ("a", 1, 2, "expected '=' and a value"),
        ("a = ", 1, 5, "expected a value, found the end of the file"),
        ("a = 1 2", 1, 7, "expected the end of the line, found '2'"),
        ("a = hello", 1, 5, "expected a value, found 'hello'"),
        ("a = \"open", 1, 5, "the string is not closed"),
        ("a = \"\"\"\nnever closed", 1, 5, "the string is not closed"),
        ("a = 'x\ny'", 1, 7, "the string is not closed on its line"),
        ("a = \"\\q\"", 1, 6, "unknown escape"),
        ("a = \"\\uD800\"", 1, 6, "not a Unicode scalar value"),
        ("a = \"\\u12\"", 1, 6, "takes 4 hexadecimal digits"),
        ("a = \"bell\u{07}\"", 1, 10, "a string cannot hold the control character U+0007"),
        ("# bell \u{07}", 1, 8, "a comment cannot hold"),
        ("a = [1, 2", 1, 5, "the array is not closed"),
        ("a = [1 2]", 1, 8, "expected ',' or ']'"),
        ("a = [,]", 1, 6, "expected a value, found ','"),
        ("a = {x = 1,}", 1, 12, "expected a key, found '}'"),
        ("a = {x = 1\n}", 1, 11, "an inline table must be closed on its line"),
        ("a = 01", 1, 5, "'01' is not a valid number"),
        ("a = 1__0", 1, 5, "not a valid number"),
        ("a = 1.", 1, 5, "not a valid number"),
        ("a = .5", 1, 5, "not a valid number"),
        ("a = +0x10", 1, 5, "not a valid number"),
        ("a = 0x", 1, 5, "not a valid number"),
        ("a = 0xFFFFFFFFFFFFFFFF", 1, 5, "not a valid integer"),
        ("a = 9223372036854775808", 1, 5, "past the 64-bit integer range"),
        ("a = 1979-02-29", 1, 5, "not a valid date or time"),
        ("a = 24:00:00", 1, 5, "not a valid date or time"),
        ("a = 07:32:00Z", 1, 5, "not a valid date or time"),
        ("a = 1\na = 2", 2, 1, "the key 'a' is defined twice"),
        ("[t]\n[t]", 2, 2, "the table 't' is defined twice"),
        ("a = 1\n[a]", 2, 2, "'a' is already a value"),
        ("[a]\nb.c = 1\n[a.b]", 3, 2, "the table 'b' is defined twice"),
        ("[a.b]\n[a]\nb.c = 1", 3, 1, "the table 'b' is defined elsewhere"),
        ("a = {x = 1}\n[a.y]", 2, 2, "'a' is an inline table"),
        ("[[a]]\n[a]", 2, 2, "'a' is an array of tables"),
        ("a = [1]\n[[a]]", 2, 3, "'a' is already a value"),
        ("a = 1\rb = 2", 1, 6, "a carriage return must be followed by a line feed"),
        ("é = 1", 1, 1, "expected a key, found 'é'"),
        ("x = \"é\" é", 1, 9, "expected the end of the line, found 'é'"),
    ])
    func anInvalidDocumentIsAnErrorAtItsLineAndColumn(text: String, line: Int, column: Int, reason: String) throws {
        let error = try #require(failure(text), "parsed: \(text)")
        #expect(error.line == line && error.column == column, "\(text): \(error)")
        #expect(error.reason.hasPrefix(reason) || error.reason.contains(reason), "\(text): \(error.reason)")
    }

    /// Nesting is bounded, so a hostile file cannot exhaust the stack.
    @Test func deepNestingIsAnErrorNotACrash() throws {
        let deep = "a = " + String(repeating: "[", count: 100_000)
        #expect(failure(deep)?.reason == "values nest more than 64 deep")
        let inline = "a = " + String(repeating: "{b = ", count: 100_000)
        #expect(failure(inline)?.reason.contains("nest more than 64 deep") == true)
        let key = String(repeating: "k.", count: 100_000) + "k = 1"
        #expect(failure(key)?.reason == "the key has more than 64 parts")
        #expect(throws: Never.self) { try parse("a = " + String(repeating: "[", count: 60) + String(repeating: "]", count: 60)) }
    }
}
