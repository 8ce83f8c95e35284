import QPlayFuzzSupport
import QPlayProtocol

/// `Command.parse(name:args:)` on arguments the input builds (any JSON value, leaning
/// to the keys and words commands use). It must throw a `ProtocolError` or return a
/// command; a command's own arguments must parse back to the same command (they are
/// what the client sends for it).
@main
enum CommandParsingFuzz {
    static func main() { FuzzDriver.run(check) }

    static func check(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let nameChoice = input.choose(Command.names.count + 1)
        let name = nameChoice < Command.names.count ? Command.names[nameChoice] : text(&input)
        let args: JSONValue? = input.byte() % 8 == 0 ? nil : value(&input, depth: 0)
        let command: Command
        do {
            command = try Command.parse(name: name, args: args)
        } catch {
            fuzzCheck(!error.message.isEmpty, "an error without a message for \(name) \(String(describing: args))")
            return
        }
        fuzzCheck(command.name == name, "\(name) parsed as \(command.name)")
        let again = Result { () throws(ProtocolError) in
            try Command.parse(name: command.name, args: command.arguments.map(JSONValue.object))
        }
        fuzzCheck(again == .success(command),
            "\(command) gives arguments \(String(describing: command.arguments)) that parse as \(again)")
    }

    static let words = [
        "where", "limit", "ids", "paths", "entry", "index", "from", "to", "button", "position",
        "delta", "set", "repeat", "shuffle", "path", "wait", "events", "property", "op", "value",
        "artist", "album", "title", "equals", "contains", "next", "previous", "off", "one", "all",
        "state", "queue", "track", "volume", "mode", "library", "", "x",
    ]

    static func text(_ input: inout FuzzInput) -> String {
        let choice = input.choose(words.count + 1)
        guard choice == words.count else { return words[choice] }
        return String(decoding: input.take(Int(input.byte() % 12)), as: UTF8.self)
    }

    static func value(_ input: inout FuzzInput, depth: Int) -> JSONValue {
        switch input.byte() % (depth < 4 ? 9 : 6) {
        case 0: return .null
        case 1: return .bool(input.byte() & 1 == 1)
        case 2:
            let magnitude = Int64(input.byte()) << 8 | Int64(input.byte())
            let scale: Int64 = [1, 1, 1_000_000, 1 << 40, Int64.max / 65536][input.choose(5)]
            return .integer((input.byte() & 1 == 1 ? -magnitude : magnitude) &* scale)
        case 3:
            let specials: [Double] = [0, -0.0, 0.5, 1.0, 3.0, -2.5, 1e300, -1e300, 9.3e18, .greatestFiniteMagnitude]
            return .number(specials[input.choose(specials.count)] * Double(input.byte()) / 16)
        case 4, 5: return .string(text(&input))
        case 6, 7:
            return .array((0..<input.choose(5)).map { _ in value(&input, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<input.choose(5) { members[text(&input)] = value(&input, depth: depth + 1) }
            return .object(members)
        }
    }
}
