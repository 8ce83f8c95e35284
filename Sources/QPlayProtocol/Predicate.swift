/// A track property a predicate can test (docs/PROTOCOL.md, Types): tag texts and the
/// path, listening counts (`plays`, `skips`, `rating`) and listening times
/// (`last_played`, `added`).
public enum SearchProperty: String, Sendable, Hashable, Codable, CaseIterable {
    case title, artist, album, albumArtist = "album_artist", genre, path
    case plays, skips, rating
    case lastPlayed = "last_played", added

    /// The kind of value it holds, which decides the comparisons it takes.
    public enum Kind: Sendable { case text, count, time }

    public var kind: Kind {
        switch self {
        case .title, .artist, .album, .albumArtist, .genre, .path: .text
        case .plays, .skips, .rating: .count
        case .lastPlayed, .added: .time
        }
    }

    public var comparisons: [Comparison] {
        switch kind {
        case .text: [.contains, .equals]
        case .count: [.eq, .lt, .gt, .le, .ge]
        case .time: [.within, .before]
        }
    }
}

/// How a predicate compares: texts ignoring case and diacritics; counts as numbers;
/// times by age (`within` 30 days, `before` 90 days ago — or never).
public enum Comparison: String, Sendable, Hashable, Codable, CaseIterable {
    case contains, equals
    case eq, lt, gt, le, ge
    case within, before
}

/// `{"property": "title", "op": "contains", "value": "love"}`,
/// `{"property": "rating", "op": "ge", "value": 4}`,
/// `{"property": "last_played", "op": "before", "value": "90d"}`. A query is a list of
/// predicates that must all hold; the empty list matches every track. A count's value
/// is kept as its decimal digits and an age as written (`30d`).
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

    /// A count's value is a JSON number, as requests write it; read back either way.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        property = try container.decode(SearchProperty.self, forKey: .property)
        comparison = try container.decode(Comparison.self, forKey: .comparison)
        if let number = try? container.decode(Int64.self, forKey: .value) {
            value = String(number)
        } else {
            value = try container.decode(String.self, forKey: .value)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(property, forKey: .property)
        try container.encode(comparison, forKey: .comparison)
        if let count {
            try container.encode(count, forKey: .value)
        } else {
            try container.encode(value, forKey: .value)
        }
    }

    /// A count's number (nil for other kinds).
    public var count: Int? { property.kind == .count ? Int(value) : nil }

    /// An age's length in seconds (nil for other kinds or a malformed age).
    public var ageSeconds: Double? { property.kind == .time ? Self.seconds(ofAge: value) : nil }

    /// Units of an age: seconds, minutes, hours, days, weeks.
    static let ageUnits: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]

    /// `30d` → 2,592,000; a whole number and one unit, nothing else.
    public static func seconds(ofAge text: String) -> Double? {
        guard let unit = text.last, let scale = ageUnits[unit] else { return nil }
        let digits = text.dropLast()
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCII), let number = Int(digits), number >= 0
        else { return nil }
        return Double(number) * scale
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
        let comparisons = property.comparisons
        guard case .string(let opName)? = fields["op"], let comparison = Comparison(rawValue: opName),
            comparisons.contains(comparison)
        else {
            let names = comparisons.map { "\"\($0.rawValue)\"" }
            throw .badRequest(
                "\(command): predicate `op` for \(property.rawValue) must be "
                    + names.dropLast().joined(separator: ", ") + " or " + names.last!)
        }
        switch property.kind {
        case .text:
            guard case .string(let value)? = fields["value"] else {
                throw .badRequest("\(command): predicate `value` must be a string")
            }
            try ArgumentReader.rejectNUL(value, command: command, argument: "predicate `value`")
            return Predicate(property, comparison, value)
        case .count:
            guard let number = fields["value"]?.integerValue, number >= 0, number <= 1_000_000_000 else {
                throw .badRequest(
                    "\(command): predicate `value` for \(property.rawValue) must be a whole number from 0 to 1000000000")
            }
            return Predicate(property, comparison, String(number))
        case .time:
            guard case .string(let age)? = fields["value"], seconds(ofAge: age) != nil else {
                throw .badRequest(
                    "\(command): predicate `value` for \(property.rawValue) must be an age like \"30d\" "
                        + "(a whole number and one of s, m, h, d, w)")
            }
            return Predicate(property, comparison, age)
        }
    }

    var json: JSONValue {
        let wireValue: JSONValue = count.map { .integer(Int64($0)) } ?? .string(value)
        return .object(["property": .string(property.rawValue), "op": .string(comparison.rawValue), "value": wireValue])
    }
}
