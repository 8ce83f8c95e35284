import QPlayProtocol
import Testing

/// Input that looks nearly right and is refused: JSON with a trailing comma (JSONDecoder
/// takes it, JSON does not), alarm days named twice.
@Suite("Strict input")
struct StrictInputTests {
    private func failure(_ text: String) -> RequestDecodingError? {
        if case .failure(let error) = Request.decode(line: Array(text.utf8)) { return error }
        return nil
    }

    @Test(arguments: [
        #"{"id":1,"cmd":"ping",}"#,
        #"{"id":1,"cmd":"ping" , }"#,
        #"{"id":1,"cmd":"add","args":{"paths":["a.mp3",]}}"#,
        #"{"id":1,"cmd":"add","args":{"paths":["a.mp3"],}}"#,
        // Escapes send the line to JSONDecoder, past the fast reader.
        #"{"id":1,"cmd":"add","args":{"paths":["caf\u00e9.mp3"],}}"#,
        "{\"id\":1,\"cmd\":\"ping\",\n}",
    ])
    func aTrailingCommaIsInvalidJSON(_ line: String) {
        let error = failure(line)
        #expect(error?.error.code == .badRequest, "\(line)")
        #expect(error?.error.message.hasPrefix("invalid JSON") == true, "\(String(describing: error))")
    }

    @Test func commasInsideStringsAreText() throws {
        for line in [
            #"{"id":1,"cmd":"add","args":{"paths":["a,}.mp3"]}}"#,
            #"{"id":1,"cmd":"add","args":{"paths":["a\",]\u00e9.mp3"]}}"#,
        ] {
            let command = try Request.decode(line: Array(line.utf8)).get().command
            guard case .add(.paths(let paths)) = command else {
                Issue.record("not an add of paths: \(command)")
                continue
            }
            #expect(paths.count == 1 && paths[0].contains(","), "\(paths)")
        }
    }

    @Test func bookmarkListWindowsAreBounded() {
        for args in [#"{"count":0}"#, #"{"count":5001}"#, #"{"start":-1}"#] {
            let error = failure(#"{"id":1,"cmd":"bookmark_list","args":"# + args + "}")
            #expect(error?.error.code == .badRequest, "\(args)")
        }
    }

    @Test func alarmDaysNamedTwiceAreRefused() {
        for text in ["mon,mon", "mon-fri,fri", "fri-mon,sun", "tue,mon-wed"] {
            #expect(AlarmDays.parse(text) == nil, "\(text)")
        }
        #expect(AlarmDays.parse("mon,wed-fri,sun") == ["mon", "wed", "thu", "fri", "sun"])
        let line = #"{"id":1,"cmd":"alarm_add","args":{"time":"07:00","days":["mon","tue","mon"]}}"#
        let error = failure(line)
        #expect(error?.error == .badRequest("alarm_add: `days` names `mon` twice"), "\(String(describing: error))")
    }
}
