import QPlayFuzzSupport
import QPlayMPD

/// Lines a client could send to the MPD frontend, through everything in the codec that
/// reads client text: the tokenizer, the filter and tail parsers, the range and
/// argument parsers, the command-list state machine. Nothing may crash or trap, errors
/// carry a message, and what parses must hold up:
/// - a request quoted back as a client would send it parses to the same request;
/// - parsed numbers, ranges and positions are in MPD's bounds;
/// - a parsed filter written as an expression parses back to the same filter.
///
/// Input: the bytes of one session, split into lines at "\n".
@main
enum MPDLineFuzz {
    static func main() { FuzzDriver.run(check) }

    static func check(_ bytes: [UInt8]) {
        var commandList = MPDCommandList(maximumSize: 4096)
        var listed = 0
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let request: MPDRequest
            do {
                request = try MPDRequestParser.parse(line)
            } catch {
                fuzzCheck(!error.message.isEmpty, "an error without a message for \(line)")
                if case .buffered = commandList.feed(unparsable: error) { listed += 1 } else { listed = 0 }
                continue
            }
            checkRequest(request)
            switch commandList.feed(request) {
            case .buffered: listed += 1
            case .runList(let requests, _), .runListThenFail(let requests, _, _, _):
                // Begin and the failing line are counted; the end is not.
                fuzzCheck(requests.count < listed, "a list of \(requests.count) from \(listed) lines")
                listed = 0
            case .run, .failed: listed = 0
            }
        }
    }

    static func checkRequest(_ request: MPDRequest) {
        fuzzCheck(request.name.utf8.first.map { $0 >= 0x61 && $0 <= 0x7A } == true, "command \(request.name)")
        fuzzCheck(request.arguments.count <= MPDRequestParser.maximumArguments, "too many arguments")
        let line = MPDQuoting.line(request.name, request.arguments)
        let again = Result { () throws(MPDError) in try MPDRequestParser.parse(Array(line.utf8)) }
        fuzzCheck(again == .success(request), "\(request) quoted as \(line) parses as \(again)")

        for argument in request.arguments.prefix(8) { checkArgument(argument) }
        let arguments = request.arguments[...]
        for (oldStyle, tails) in [(MPDFilterOperator.equals, MPDSearchTails.findAndSearch), (.contains, .group)] {
            checkSearch(arguments, oldStyle: oldStyle, tails: tails)
            checkSearch(arguments.dropFirst(), oldStyle: oldStyle, tails: tails)
        }
    }

    static func checkArgument(_ argument: String) {
        if let range = try? MPDRange.parse(argument) {
            fuzzCheck(range.start >= 0 && range.start <= Int(Int32.max), "range start of \(argument)")
            if let end = range.end { fuzzCheck(end >= range.start, "range \(argument) ends before it starts") }
        }
        if let value = try? MPDArgument.unsigned(argument) {
            fuzzCheck(value >= 0 && value <= Int(UInt32.max), "unsigned \(argument) is \(value)")
        }
        if let value = try? MPDArgument.integer(argument, in: -100...100) {
            fuzzCheck((-100...100).contains(value), "integer \(argument) is \(value)")
        }
        if let value = try? MPDArgument.boolean(argument) {
            fuzzCheck(try! MPDArgument.unsigned(argument) == (value ? 1 : 0), "boolean \(argument)")
        }
        switch try? MPDArgument.position(argument) {
        case .absolute(let n)?, .afterCurrent(let n)?, .beforeCurrent(let n)?:
            fuzzCheck(n >= 0, "position \(argument) is \(n)")
        case nil: break
        }
        if case .absolute(let seconds)? = try? MPDArgument.time(argument) {
            fuzzCheck(!(argument.hasPrefix("+") || argument.hasPrefix("-")), "time \(argument) is \(seconds)")
        }
        if let seconds = try? MPDArgument.songTime(argument) { fuzzCheck(!(seconds < 0), "song time \(argument)") }
        if let value = try? MPDArgument.number(argument) {
            let text = MPDNumber.seconds(value)
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            fuzzCheck(parts.count == 2 && parts[1].count == 3 && !parts[0].isEmpty, "\(value) printed \(text)")
            fuzzCheck(value.isNaN || abs(value) > 9e12 || abs((Double(text) ?? .nan) - value) <= 0.0005 + abs(value) * 1e-15,
                "\(value) printed \(text)")
        }
    }

    static func longestValue(_ filter: MPDFilter) -> Int {
        switch filter {
        case .compare(_, _, let value): value.utf8.count
        case .not(let inner): longestValue(inner)
        case .and(let items): items.map(longestValue).max() ?? 0
        }
    }

    static func checkSearch(_ arguments: ArraySlice<String>, oldStyle: MPDFilterOperator, tails: MPDSearchTails) {
        let parsed: MPDSearchArguments
        do {
            parsed = try MPDSearchArguments.parse(arguments, oldStyle: oldStyle, tails: tails, allowsEmptyFilter: true)
        } catch {
            fuzzCheck(!error.message.isEmpty && error.code == .argument, "search error \(error)")
            return
        }
        fuzzCheck(tails.contains(.window) || parsed.window == nil, "a window where none is taken")
        fuzzCheck(tails.contains(.sort) || parsed.sort == nil, "a sort where none is taken")
        fuzzCheck(tails.contains(.group) || parsed.group.isEmpty, "a group where none is taken")
        // Old pairs take values of any length; an expression's are limited as in MPD.
        guard let expression = parsed.filter.expression, longestValue(parsed.filter) <= 4095 else { return }
        let again = Result { () throws(MPDError) in
            try MPDSearchArguments.parse([expression], oldStyle: oldStyle).filter
        }
        fuzzCheck(again == .success(parsed.filter), "\(parsed.filter) written \(expression) parses as \(again)")
    }
}
