/// A value of a TOML document (TOML 1.0), as `TOMLParser` reads it. The config file is
/// flat, but any valid document parses, so that a misplaced table is named as an
/// unknown key and a value of the wrong kind by its type, rather than as bad syntax.
enum TOMLValue: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    /// An offset or local date-time, a local date or a local time, as written: no key
    /// takes one, so it is only ever named in a message.
    case dateTime(String)
    case array([TOMLValue])
    case table(TOMLTable)

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var int: Int? {
        if case .integer(let number) = self { return number }
        return nil
    }

    var double: Double? {
        if case .float(let number) = self { return number }
        return nil
    }

    var bool: Bool? {
        if case .boolean(let flag) = self { return flag }
        return nil
    }

    var array: [TOMLValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    /// The kind, as a message names it: "expected a number, found string ...".
    var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .float: "float"
        case .boolean: "boolean"
        case .dateTime: "date-time"
        case .array: "array"
        case .table: "table"
        }
    }

    /// The value written as TOML (strings quoted and escaped), for messages.
    var tomlText: String {
        switch self {
        case .string(let text): Self.quoted(text)
        case .integer(let number): String(number)
        case .float(let number):
            number.isNaN ? "nan" : number.isInfinite ? (number < 0 ? "-inf" : "inf") : String(number)
        case .boolean(let flag): String(flag)
        case .dateTime(let text): text
        case .array(let values): "[" + values.map(\.tomlText).joined(separator: ", ") + "]"
        case .table(let table):
            "{" + table.keys.map { "\(Self.quoted($0)) = \(table[$0]?.tomlText ?? "")" }.joined(separator: ", ") + "}"
        }
    }

    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

/// A TOML table: its keys in the order they were first written.
struct TOMLTable: Equatable, Sendable {
    private(set) var keys: [String] = []
    private var values: [String: TOMLValue] = [:]

    subscript(key: String) -> TOMLValue? { values[key] }

    /// Sets `key` (a new key goes last in `keys`).
    mutating func set(_ key: String, to value: TOMLValue) {
        if values.updateValue(value, forKey: key) == nil { keys.append(key) }
    }
}

/// Where and why a TOML document is not valid: `line` and `column` are 1-based, the
/// column counted in characters (Unicode scalars), tabs as one.
struct TOMLSyntaxError: Error, Equatable, Sendable {
    var line: Int
    var column: Int
    var reason: String
}
