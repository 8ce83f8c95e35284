/// What a smart playlist orders its tracks by.
public enum SmartSortKey: String, Sendable, Hashable, Codable, CaseIterable {
    case plays, rating
    case lastPlayed = "last_played"
    case added, title, random

    /// Counts and times put the most first; titles go A to Z.
    public var defaultOrder: SortOrder { self == .title ? .ascending : .descending }
}

public enum SortOrder: String, Sendable, Hashable, Codable, CaseIterable {
    case ascending = "asc"
    case descending = "desc"
}

/// A smart playlist: a stored query over the library (docs/PROTOCOL.md, Smart
/// playlists), evaluated whenever it is listed, shown or loaded, so it is always
/// current. Without `sort` its tracks come in the library order; `limit` keeps the
/// first N. This is also what the daemon stores (as JSON, `NAME.smart` in the
/// playlist folder).
public struct SmartPlaylistRule: Sendable, Hashable, Codable {
    public var `where`: [Predicate]
    public var sort: SmartSortKey?
    public var order: SortOrder?
    public var limit: Int?

    public init(where predicates: [Predicate], sort: SmartSortKey? = nil, order: SortOrder? = nil, limit: Int? = nil) {
        self.where = predicates
        self.sort = sort
        self.order = order
        self.limit = limit
    }

    /// The largest `limit`: the queue's own bound would refuse more on load anyway.
    public static let maximumLimit = 1_000_000

    var arguments: [String: JSONValue] {
        var args: [String: JSONValue] = ["where": .array(self.where.map(\.json))]
        if let sort { args["sort"] = .string(sort.rawValue) }
        if let order { args["order"] = .string(order.rawValue) }
        if let limit { args["limit"] = .integer(Int64(limit)) }
        return args
    }

    /// A stored rule (the JSON `smart_save` takes, without `name`), checked as a request
    /// is: a file edited by hand gets the same messages.
    public static func stored(_ bytes: [UInt8]) throws(ProtocolError) -> SmartPlaylistRule {
        guard let json = JSONInput.value(from: bytes, complete: true) else {
            throw .badRequest("smart playlist: not a JSON object")
        }
        let reader = try ArgumentReader(command: "smart playlist", args: json)
        try reader.allowOnly(["where", "sort", "order", "limit"])
        return try parse(reader)
    }

    /// The JSON a stored rule is kept as: one line, keys sorted.
    public var storedText: String {
        String(decoding: WireCoding.line(JSONValue.object(arguments)), as: UTF8.self)
    }

    /// `smart_save`'s arguments other than `name`.
    static func parse(_ reader: ArgumentReader) throws(ProtocolError) -> SmartPlaylistRule {
        let predicates = try reader.predicates("where") ?? []
        var sort: SmartSortKey?
        if let text = try reader.string("sort") {
            guard let key = SmartSortKey(rawValue: text) else {
                throw .badRequest(
                    "\(reader.command): `sort` is one of " + SmartSortKey.allCases.map(\.rawValue).joined(separator: ", ")
                        + ", got \"\(text)\"")
            }
            sort = key
        }
        var order: SortOrder?
        if let text = try reader.string("order") {
            guard let value = SortOrder(rawValue: text) else {
                throw .badRequest("\(reader.command): `order` is asc or desc, got \"\(text)\"")
            }
            order = value
        }
        let limit = try reader.integer("limit", in: 1...Int64(maximumLimit)).map { Int($0) }
        return SmartPlaylistRule(where: predicates, sort: sort, order: order, limit: limit)
    }
}
