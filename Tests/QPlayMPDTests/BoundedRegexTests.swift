import QPlayMPD
import Testing

@Suite struct BoundedRegexTests {
    static let patterns = [
        "abc", "^abc", "abc$", "^$", "a.c", "a|b|cd", "(ab)+c", "(?:ab)*c", "a?b", "a{2}", "a{2,}", "a{1,3}b",
        "^a{0,2}$", "[abc]+", "[^abc]", "[a-z]+\\d", "\\d{4}", "\\w+\\s\\w+", "^\\S+$", "\\W", "\\D", "[[:alpha:]]+$",
        "^(.*)*Z$", "(a|ab)(c|bcd)(d*)", "\\bcat\\b", "\\Bat", "x*", "", "\\.mp3$", "[.]", "[\\d-]+$", "[-a]",
        "(?i)ABC", "a(?i)bc", "(?i:A)b", "colou?r", "^[^/]+/[^/]+$", "é", "[à-ÿ]", "a.*?b", "a+?$", "(a*)*b",
        "(|a)+b", "ab|", "\\x41", "\\x{e9}", "\\t", "a\\+b", "\\(x\\)", "[a\\]]", "^.{3}$", ".{5,}", "^(a|b)*?c",
        "^[A-Z][a-z]+", "(?<name>ca)t", "^\\w+/\\w+\\.(mp3|flac)$", "[^\\s]+", "\\d+(?:\\.\\d+)?", "^a{2,3}?$",
    ]
    static let texts = [
        "", "abc", "xabcx", "ABC", "aabbcc", "a", "aa", "aaa", "b", "ab", "abcd", "abbcd", "cat", "the cat sat",
        "concat", "2024 live", "foo bar", "Music/Artist/Track.mp3", "Artist/Track.flac", "path/to.MP3", "colour",
        "color", "café", "Ça", "x.y", "a+b", "(x)", "-1-2", "]", "tab\there", "aaaaZ", "aaaaZx", "é", "A", "a]b",
        "3.14 pi", "Name", "acd", "abcdd", "bbc",
    ]

    /// The reference: Swift's backtracking `Regex` with the options MPD's PCRE2 has
    /// (DOTALL, ASCII-style word boundaries), case-insensitive for `search`.
    static func reference(_ pattern: String, _ text: String, caseless: Bool) throws -> Bool {
        var regex = try Regex(pattern).dotMatchesNewlines().wordBoundaryKind(.simple)
        if caseless { regex = regex.ignoresCase() }
        return try regex.firstMatch(in: text) != nil
    }

    @Test(arguments: [false, true])
    func matchesAsSwiftsRegexDoes(caseless: Bool) throws {
        var compared = 0
        for pattern in Self.patterns {
            let bounded = try BoundedRegex(pattern, caseless: caseless)
            for text in Self.texts {
                let expected = try Self.reference(pattern, text, caseless: caseless)
                #expect(bounded.matches(text) == expected, "\(pattern) on \(text) (caseless: \(caseless))")
                compared += 1
            }
        }
        #expect(compared == Self.patterns.count * Self.texts.count)
    }

    @Test func nestedStarsTakeLinearTimeOnLongTexts() throws {
        // A backtracking engine tries every way to split the text among the stars:
        // exponential in the length; none of these would return.
        let long = String(repeating: "a", count: 10_000)
        #expect(try !BoundedRegex("^(.*)*Z$").matches(long))
        #expect(try BoundedRegex("^(.*)*Z$").matches(long + "Z"))
        #expect(try !BoundedRegex("(a*)*b").matches(long))
        #expect(try !BoundedRegex("^(a|aa)+$", caseless: true).matches(long + "b"))
        #expect(try !BoundedRegex("(x+x+)+y").matches(String(repeating: "x", count: 10_000)))
        #expect(try BoundedRegex("^(a|a?)+$").matches(long))
    }

    @Test func aStepBudgetEndsTheRun() throws {
        let regex = try BoundedRegex("(a|b)*c")
        var steps = 100
        #expect(regex.matches(String(repeating: "ab", count: 1000), steps: &steps) == nil)
        #expect(steps < 0)
        var plenty = 1_000_000
        #expect(regex.matches("ababc", steps: &plenty) == true)
        #expect(plenty < 1_000_000)
    }

    func refusal(_ pattern: String) -> String? {
        do {
            _ = try BoundedRegex(pattern)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func whatALinearEngineCannotDoIsRefusedWithTheReason() {
        #expect(refusal("(a)\\1") == "backreferences are not supported")
        #expect(refusal("(?<n>a)\\k<n>") == "backreferences are not supported")
        #expect(refusal("a(?=b)") == "lookahead is not supported")
        #expect(refusal("a(?!b)") == "lookahead is not supported")
        #expect(refusal("(?<=a)b") == "lookbehind is not supported")
        #expect(refusal("(?<!a)b") == "lookbehind is not supported")
        #expect(refusal("a*+") == "possessive quantifiers are not supported")
        #expect(refusal("(a{1000}){1000}")?.hasPrefix("pattern too large") == true)
        #expect(refusal("(abc") == "missing closing parenthesis")
        #expect(refusal("abc)") == "unmatched closing parenthesis")
        #expect(refusal("[abc") == "missing terminating ] for character class")
        #expect(refusal("*a") == "quantifier does not follow a repeatable item")
        #expect(refusal("a**") == "quantifier does not follow a repeatable item")
        #expect(refusal("[z-a]") == "range out of order in character class")
        #expect(refusal("a{3,2}") == "numbers out of order in {} quantifier")
        #expect(refusal("\\q") == "unknown escape \\q")
        #expect(refusal("[[:nothing:]]") == "unknown POSIX class name")
        #expect(refusal("\\") == "\\ at end of pattern")
        #expect(refusal("(?x)a") == "unsupported group or flag")
    }

    @Test func aBraceThatIsNoCountIsALiteralAndDotTakesANewline() throws {
        #expect(try BoundedRegex("a{x}").matches("a{x}"))
        #expect(try BoundedRegex("a{,2}").matches("a{,2}"))
        // PCRE's: a `]` first in a class is a member (Swift's Regex refuses the pattern).
        #expect(try BoundedRegex("^[]a]+$").matches("a]"))
        // MPD compiles with PCRE2_DOTALL.
        #expect(try BoundedRegex("^a.b$").matches("a\nb"))
        #expect(try BoundedRegex("b$").matches("ab\n"))
        #expect(try !BoundedRegex("b\\z").matches("ab\n"))
    }
}
