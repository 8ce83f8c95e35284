import QPlayMPD
import Testing

@Suite struct MPDRequestParserTests {
    @Test func splitsNameAndArguments() throws {
        #expect(try MPDRequestParser.parse(Array("play 3".utf8)) == MPDRequest(name: "play", arguments: ["3"]))
    }
}
