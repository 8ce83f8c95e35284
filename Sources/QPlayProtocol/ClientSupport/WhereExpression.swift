/// `qplay --where` expressions: `artist=Beyoncé` (equals), `album~live` (contains).
public enum WhereExpression {
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case noOperator(String)
        case unknownProperty(String)

        public var description: String {
            switch self {
            case .noOperator(let text):
                "\"\(text)\" is not PROPERTY=VALUE (equals) or PROPERTY~VALUE (contains)"
            case .unknownProperty(let name):
                "unknown property \"\(name)\"; properties: "
                    + SearchProperty.allCases.map(\.rawValue).joined(separator: ", ")
            }
        }
    }

    /// The property name is what comes before the first `=` or `~`.
    public static func parse(_ text: String) throws(ParseError) -> Predicate {
        guard let split = text.firstIndex(where: { $0 == "=" || $0 == "~" }) else {
            throw .noOperator(text)
        }
        let name = String(text[..<split].lowercased().map { $0 == "-" ? "_" : $0 })
        let aliases = ["albumartist": "album_artist", "file": "path"]
        guard let property = SearchProperty(rawValue: aliases[name] ?? name) else {
            throw .unknownProperty(String(text[..<split]))
        }
        let comparison: Comparison = text[split] == "=" ? .equals : .contains
        return Predicate(property, comparison, String(text[text.index(after: split)...]))
    }
}
