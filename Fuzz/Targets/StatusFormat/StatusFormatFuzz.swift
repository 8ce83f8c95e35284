import QPlayFuzzSupport
@testable import QPlayProtocol

/// The client's text parsers: `status --format` templates (`StatusFormat.render`) over
/// statuses the input fills, and `--where` expressions (`WhereExpression.parse`).
///
/// Input: a byte choosing the parser, then for templates the status fields and the
/// template text, for `--where` the expression text.
@main
enum StatusFormatFuzz {
    static func main() { FuzzDriver.run(check) }

    static func check(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        if input.byte() & 1 == 0 {
            checkTemplate(&input)
        } else {
            checkWhere(String(decoding: input.rest(), as: UTF8.self))
        }
    }

    static func checkTemplate(_ input: inout FuzzInput) {
        let status = self.status(&input)
        let template = String(decoding: input.rest(), as: UTF8.self)
        let output = StatusFormat.render(template, status: status)
        if status.state == .stopped {
            fuzzCheck(output.isEmpty, "stopped renders \(output.debugDescription)")
            return
        }
        // A template `validate` refuses (qplay exits 2 on it first) comes out as written;
        // one without placeholders comes out with `{{` and `}}` as single braces.
        if let pieces = try? StatusFormat.pieces(of: template) {
            if !pieces.contains(where: { if case .placeholder = $0 { true } else { false } }) {
                let literal = template.replacing("{{", with: "{").replacing("}}", with: "}")
                fuzzCheck(output == literal, "\(template.debugDescription) became \(output.debugDescription)")
            }
        } else {
            fuzzCheck(output == template, "refused \(template.debugDescription) became \(output.debugDescription)")
        }
        // Each placeholder alone renders its value.
        for name in StatusFormat.placeholders {
            let alone = StatusFormat.render("<{\(name)}>", status: status)
            fuzzCheck(alone == "<" + (StatusFormat.value(of: name, in: status) ?? "") + ">", "{\(name)} rendered \(alone)")
        }
        _ = StatusFormat.defaultText(status)
    }

    static func checkWhere(_ text: String) {
        do throws(WhereExpression.ParseError) {
            let predicate = try WhereExpression.parse(text)
            switch predicate.property.kind {
            case .text:
                // A text's value is everything after the first operator symbol, exactly.
                guard let split = text.firstIndex(where: { $0 == "=" || $0 == "~" }) else {
                    fuzzCheck(false, "\(text.debugDescription) parsed without an operator")
                    return
                }
                fuzzCheck(predicate.value == String(text[text.index(after: split)...]),
                    "\(text.debugDescription) gave the value \(predicate.value.debugDescription)")
                fuzzCheck(predicate.comparison == (text[split] == "=" ? .equals : .contains),
                    "\(text.debugDescription) gave \(predicate.comparison)")
            case .count:
                fuzzCheck(predicate.count != nil && text.hasSuffix(predicate.value.drop { $0 == "0" && predicate.value.count > 1 }),
                    "\(text.debugDescription) gave the count \(predicate.value.debugDescription)")
            case .time:
                fuzzCheck(predicate.ageSeconds != nil && text.hasSuffix(predicate.value),
                    "\(text.debugDescription) gave the age \(predicate.value.debugDescription)")
            }
        } catch {
            switch error {
            case .noOperator(let quoted):
                fuzzCheck(quoted == text, "no operator in \(text.debugDescription)")
            case .unknownProperty(let name):
                fuzzCheck(text.hasPrefix(name), "unknown property \(name.debugDescription)")
            case .badOperator(let name, _), .badValue(let name, _, _):
                fuzzCheck(SearchProperty(rawValue: name) != nil, "an error about \(name.debugDescription), no property")
            }
            fuzzCheck(!error.description.isEmpty, "an error without a message")
        }
    }

    static func status(_ input: inout FuzzInput) -> Status {
        func text() -> String? {
            let length = Int(input.byte())
            return length == 0 ? nil : String(decoding: input.take(length % 24), as: UTF8.self)
        }
        func number() -> Double? {
            let values: [Double?] = [nil, 0, 1.5, 59.99, 3600, -3, 1e300, .infinity, -.infinity, .nan, 9.3e18]
            return values[input.choose(values.count)]
        }
        func integer() -> Int? {
            let values: [Int?] = [nil, 0, 1, -1, 2026, Int.max, Int.min]
            return values[input.choose(values.count)]
        }
        let state = PlayerState.allCases[input.choose(PlayerState.allCases.count)]
        let track: Track? = input.byte() & 1 == 0 ? nil : Track(
            id: 1, path: text() ?? "", title: text() ?? "", artist: text(), album: text(),
            albumArtist: text(), track: integer(), disc: integer(), year: integer(), genre: text(),
            duration: number())
        // The index is shown 1-based: the daemon's indices are queue positions, so
        // Int.max (whose successor traps) is left out.
        return Status(
            state: state, track: track, entry: nil, index: integer().map { min($0, Int.max - 1) },
            position: number(), duration: number(), queueLength: integer() ?? 0, volume: integer() ?? 0,
            output: OutputStatus(name: "null"))
    }
}
