/// `qplay --where` expressions: `artist=Beyoncé` (equals), `album~live` (contains);
/// counts `rating>=4`, `plays=0`, `skips>3` (`=`, `<`, `>`, `<=`, `>=`); ages
/// `added<30d` (within the last 30 days), `last_played>90d` (longer ago, or never).
public enum WhereExpression {
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case noOperator(String)
        case unknownProperty(String)
        case badOperator(property: String, allowed: String)
        case badValue(property: String, value: String, wanted: String)

        public var description: String {
            switch self {
            case .noOperator(let text):
                "\"\(text)\" is not PROPERTY=VALUE (equals) or PROPERTY~VALUE (contains)"
            case .unknownProperty(let name):
                "unknown property \"\(name)\"; properties: "
                    + SearchProperty.allCases.map(\.rawValue).joined(separator: ", ")
            case .badOperator(let property, let allowed):
                "\(property) takes \(allowed)"
            case .badValue(let property, let value, let wanted):
                "\(property): \"\(value)\" is not \(wanted)"
            }
        }
    }

    /// What `--where` takes, for the command-line help.
    public static let help =
        "PROPERTY=VALUE (equals) or PROPERTY~VALUE (contains); plays, skips, rating compared with "
        + "=, <, >, <=, >= and a number (rating>=4); added or last_played <AGE (within) or >AGE "
        + "(longer ago, or never), AGE like 30d (s m h d w); repeatable."

    /// The property name is the leading run of letters, `_` and `-`; the operator follows it.
    public static func parse(_ text: String) throws(ParseError) -> Predicate {
        let nameEnd = text.firstIndex { !($0.isLetter || $0 == "_" || $0 == "-") } ?? text.endIndex
        let rest = text[nameEnd...]
        let operators = ["<=", ">=", "=", "~", "<", ">"]
        guard let symbol = operators.first(where: { rest.hasPrefix($0) }) else { throw .noOperator(text) }
        let written = String(text[..<nameEnd])
        let name = written.lowercased().map { $0 == "-" ? "_" : $0 }
        let aliases = ["albumartist": "album_artist", "file": "path", "lastplayed": "last_played"]
        guard let property = SearchProperty(rawValue: aliases[String(name)] ?? String(name)) else {
            throw .unknownProperty(written)
        }
        let value = String(rest.dropFirst(symbol.count))
        switch property.kind {
        case .text:
            guard symbol == "=" || symbol == "~" else {
                throw .badOperator(property: property.rawValue, allowed: "= (equals) or ~ (contains)")
            }
            return Predicate(property, symbol == "=" ? .equals : .contains, value)
        case .count:
            let comparisons: [String: Comparison] = ["=": .eq, "<": .lt, ">": .gt, "<=": .le, ">=": .ge]
            guard let comparison = comparisons[symbol] else {
                throw .badOperator(property: property.rawValue, allowed: "=, <, >, <= or >=")
            }
            guard value.allSatisfy(\.isASCII), let number = Int(value), number >= 0, number <= 1_000_000_000 else {
                throw .badValue(property: property.rawValue, value: value, wanted: "a whole number")
            }
            return Predicate(property, comparison, String(number))
        case .time:
            guard symbol == "<" || symbol == ">" else {
                throw .badOperator(
                    property: property.rawValue, allowed: "< (within an age, e.g. <30d) or > (longer ago, or never)")
            }
            guard Predicate.seconds(ofAge: value) != nil else {
                throw .badValue(
                    property: property.rawValue, value: value, wanted: "an age like 30d (units s, m, h, d, w)")
            }
            return Predicate(property, symbol == "<" ? .within : .before, value)
        }
    }

    /// A predicate written as `--where` takes it (`rating>=4`, `album~live`).
    public static func text(of predicate: Predicate) -> String {
        let symbol =
            switch predicate.comparison {
            case .equals, .eq: "="
            case .contains: "~"
            case .lt, .within: "<"
            case .gt, .before: ">"
            case .le: "<="
            case .ge: ">="
            }
        return predicate.property.rawValue + symbol + predicate.value
    }
}

/// A smart playlist's rule in a line: `rating>=4 plays>0, by rating desc, first 50`.
public enum SmartRuleText {
    public static func describe(_ rule: SmartPlaylistRule) -> String {
        var parts = [rule.where.isEmpty ? "every track" : rule.where.map(WhereExpression.text).joined(separator: " ")]
        if let sort = rule.sort {
            parts.append(sort == .random ? "in random order" : "by \(sort.rawValue) \((rule.order ?? sort.defaultOrder).rawValue)")
        }
        if let limit = rule.limit { parts.append("first \(limit)") }
        return parts.joined(separator: ", ")
    }
}
