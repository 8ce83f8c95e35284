/// A track property a predicate can test (docs/BEHAVIOUR.md, Queries and their order).
public enum SearchProperty: String, Sendable, Hashable, Codable, CaseIterable {
    case title, artist, album, albumArtist = "album_artist", genre, path
}

/// How a predicate compares; both ignore case and diacritics.
public enum Comparison: String, Sendable, Hashable, Codable, CaseIterable {
    case contains, equals
}

/// `{"property": "title", "op": "contains", "value": "love"}`. A query is a list of
/// predicates that must all hold; the empty list matches every track.
public struct Predicate: Sendable, Hashable, Codable {
    public var property: SearchProperty
    public var comparison: Comparison
    public var value: String

    public init(_ property: SearchProperty, _ comparison: Comparison, _ value: String) {
        self.property = property
        self.comparison = comparison
        self.value = value
    }

    enum CodingKeys: String, CodingKey {
        case property, comparison = "op", value
    }

    /// Reads one predicate object, naming what is wrong with it.
    static func parse(_ json: JSONValue, command: String) throws(ProtocolError) -> Predicate {
        guard case .object(let fields) = json else {
            throw .badRequest(
                "\(command): each `where` item must be an object like "
                    + #"{"property":"title","op":"contains","value":"love"}, got \#(json.typeDescription)"#)
        }
        // Sorted: a dictionary's order differs between instances, and the same line must
        // always get the same message.
        for key in fields.keys.sorted() where !["property", "op", "value"].contains(key) {
            throw .badRequest("\(command): unknown predicate field `\(key)` (fields: property, op, value)")
        }
        let properties = SearchProperty.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .string(let propertyName)? = fields["property"],
            let property = SearchProperty(rawValue: propertyName)
        else {
            throw .badRequest("\(command): predicate `property` must be one of \(properties)")
        }
        guard case .string(let opName)? = fields["op"], let comparison = Comparison(rawValue: opName)
        else {
            throw .badRequest("\(command): predicate `op` must be \"contains\" or \"equals\"")
        }
        guard case .string(let value)? = fields["value"] else {
            throw .badRequest("\(command): predicate `value` must be a string")
        }
        try ArgumentReader.rejectNUL(value, command: command, argument: "predicate `value`")
        return Predicate(property, comparison, value)
    }

    var json: JSONValue {
        .object([
            "property": .string(property.rawValue), "op": .string(comparison.rawValue),
            "value": .string(value),
        ])
    }
}
