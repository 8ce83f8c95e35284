import QPlayMPD
import Testing

@Suite struct MPDArgumentTests {
    func message<T>(_ body: () throws(MPDError) -> T) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            #expect(error.code == .argument)
            return error.message
        }
    }

    @Test func unsignedReadsAsStrtoulDoes() throws {
        #expect(try MPDArgument.unsigned("42") == 42)
        #expect(try MPDArgument.unsigned(" 7") == 7)
        #expect(try MPDArgument.unsigned("+7") == 7)
        #expect(try MPDArgument.unsigned("-0") == 0)
        #expect(try MPDArgument.unsigned("100", max: 100) == 100)
        // strtoul negates in unsigned arithmetic: this one wraps round to 1.
        #expect(try MPDArgument.unsigned("-18446744073709551615") == 1)
        #expect(message { () throws(MPDError) in try MPDArgument.unsigned("x") } == "Integer expected: x")
        #expect(message { () throws(MPDError) in try MPDArgument.unsigned("") } == "Integer expected: ")
        #expect(message { () throws(MPDError) in try MPDArgument.unsigned("0x5") } == "Integer expected: 0x5")
        #expect(message { () throws(MPDError) in try MPDArgument.unsigned("5 ") } == "Integer expected: 5 ")
        #expect(message { () throws(MPDError) in try MPDArgument.unsigned("-1") } == "Number too large: -1")
        #expect(message { () throws(MPDError) in try MPDArgument.unsigned("101", max: 100) } == "Number too large: 101")
        #expect(message { () throws(MPDError) in try MPDArgument.unsigned("99999999999999999999999") }
            == "Number too large: 99999999999999999999999")
    }

    @Test func integerChecksItsRange() throws {
        #expect(try MPDArgument.integer("-5") == -5)
        #expect(try MPDArgument.integer("-100", in: -100...100) == -100)
        #expect(message { () throws(MPDError) in try MPDArgument.integer("x") } == "Integer expected: x")
        #expect(message { () throws(MPDError) in try MPDArgument.integer("200", in: -100...100) } == "Number too large: 200")
        #expect(message { () throws(MPDError) in try MPDArgument.integer("99999999999") } == "Number too large: 99999999999")
        #expect(message { () throws(MPDError) in try MPDArgument.integer("-18446744073709551615") }
            == "Number too large: -18446744073709551615")
    }

    @Test func numberReadsAsStrtofDoes() throws {
        #expect(try MPDArgument.number("12.5") == 12.5)
        #expect(try MPDArgument.number(" 5") == 5)
        #expect(try MPDArgument.number("+5") == 5)
        #expect(try MPDArgument.number(".5") == 0.5)
        #expect(try MPDArgument.number("1e2") == 100)
        #expect(try MPDArgument.number("0x10") == 16)
        #expect(try MPDArgument.number("inf") == .infinity)
        #expect(try MPDArgument.number("nan").isNaN)
        for bad in ["x", "", "+", "5 ", "+x", "1,5"] {
            #expect(message { () throws(MPDError) in try MPDArgument.number(bad) } == "Float expected: \(bad)")
        }
        #expect(message { () throws(MPDError) in try MPDArgument.songTime("-1") } == "Negative value not allowed: -1")
        #expect(try MPDArgument.songTime("3.25") == 3.25)
    }

    @Test func booleanIsZeroOrOne() throws {
        #expect(try MPDArgument.boolean("1"))
        #expect(try !MPDArgument.boolean("0"))
        #expect(try !MPDArgument.boolean("-0"))
        #expect(try MPDArgument.boolean(" 1"))
        for bad in ["2", "x", "", "true", "1 "] {
            #expect(message { () throws(MPDError) in try MPDArgument.boolean(bad) } == "Boolean (0/1) expected: \(bad)")
        }
    }

    @Test func positionIsAbsoluteOrRelativeToTheCurrentSong() throws {
        #expect(try MPDArgument.position("3") == .absolute(3))
        #expect(try MPDArgument.position("+0") == .afterCurrent(0))
        #expect(try MPDArgument.position("+2") == .afterCurrent(2))
        #expect(try MPDArgument.position("-1") == .beforeCurrent(1))
        #expect(message { () throws(MPDError) in try MPDArgument.position("+x") } == "Integer expected: x")
        #expect(message { () throws(MPDError) in try MPDArgument.position("x") } == "Integer expected: x")
    }

    @Test func seekcurTimeIsRelativeWithASign() throws {
        #expect(try MPDArgument.time("12.5") == .absolute(12.5))
        #expect(try MPDArgument.time("+5") == .relative(5))
        #expect(try MPDArgument.time("-5") == .relative(-5))
        #expect(message { () throws(MPDError) in try MPDArgument.time("+") } == "Float expected: +")
    }

    @Test func rangesAsMPDReadsThem() throws {
        #expect(try MPDRange.parse("3") == MPDRange(start: 3, end: 4))
        #expect(try MPDRange.parse("3:7") == MPDRange(start: 3, end: 7))
        #expect(try MPDRange.parse("3:3") == MPDRange(start: 3, end: 3))
        #expect(try MPDRange.parse("3:") == MPDRange(start: 3, end: nil))
        #expect(try MPDRange.parse(" 3") == MPDRange(start: 3, end: 4))
        #expect(try MPDRange.parse("-1") == MPDRange.all)
        let cases = [
            ("x", "Integer or range expected: x"), (":3", "Integer or range expected: :3"),
            ("1:x", "Integer or range expected: 1:x"), ("1: ", "Integer or range expected: 1: "),
            ("5:3", "Malformed range: 5:3"), ("-2", "Number is negative: -2"), ("-1:", "Number is negative: -1:"),
            ("1:-2", "Number is negative: 1:-2"), ("99999999999", "Number too large: 99999999999"),
            ("1:99999999999", "Number too large: 1:99999999999"), ("", "Integer or range expected: "),
        ]
        for (text, expected) in cases {
            #expect(message { () throws(MPDError) in try MPDRange.parse(text) } == expected)
        }
    }

    @Test func rangesClampToAList() {
        #expect(MPDRange(start: 2, end: nil).clamped(to: 5) == 2..<5)
        #expect(MPDRange(start: 2, end: 9).clamped(to: 5) == 2..<5)
        #expect(MPDRange(start: 7, end: 9).clamped(to: 5) == 5..<5)
        #expect(MPDRange.all.clamped(to: 0) == 0..<0)
    }
}
