/// The tables of a document while it is read, with TOML 1.0's rules on defining them:
/// a table is defined once, by a `[header]` or by dotted keys, never both; an inline
/// table or an array value is complete where it is written; `[[name]]` appends to an
/// array of tables, and a header below it goes into its last table. Each rule broken
/// is a `Conflict` the parser turns into a message at the key.
final class TOMLTableBuilder {
    enum Origin {
        /// Made on the way to a header's or a dotted key's table: may still be defined.
        case implicit
        /// Defined by its own `[header]`.
        case header
        /// Defined by dotted keys (`a.b = 1` defines `a`).
        case dotted
    }

    enum Entry {
        case value(TOMLValue)
        case table(TOMLTableBuilder)
        case tables([TOMLTableBuilder])
    }

    struct Conflict: Error {
        var reason: String
    }

    var origin: Origin
    private var keys: [String] = []
    private var entries: [String: Entry] = [:]

    init(origin: Origin) {
        self.origin = origin
    }

    private func insert(_ key: String, _ entry: Entry) {
        if entries.updateValue(entry, forKey: key) == nil { keys.append(key) }
    }

    /// The table a header's leading keys, or a key/value line's dotted keys, lead into.
    /// `dotted`: for a key/value line, which may only go on in tables it defines itself.
    func descend(into key: String, dotted: Bool) throws(Conflict) -> TOMLTableBuilder {
        switch entries[key] {
        case nil:
            let table = TOMLTableBuilder(origin: dotted ? .dotted : .implicit)
            insert(key, .table(table))
            return table
        case .table(let table):
            if dotted && table.origin != .dotted {
                throw Conflict(reason: "the table '\(key)' is defined elsewhere; dotted keys cannot add to it")
            }
            return table
        case .tables(let tables):
            if dotted { throw Conflict(reason: "'\(key)' is an array of tables; dotted keys cannot add to it") }
            return tables[tables.count - 1]
        case .value(.table):
            throw Conflict(reason: "'\(key)' is an inline table, complete where it is written")
        case .value(let value):
            throw Conflict(reason: "'\(key)' is already a value (\(value.typeName)), not a table")
        }
    }

    /// `[... key]`: the table the lines below it fill.
    func defineTable(_ key: String) throws(Conflict) -> TOMLTableBuilder {
        switch entries[key] {
        case nil:
            let table = TOMLTableBuilder(origin: .header)
            insert(key, .table(table))
            return table
        case .table(let table) where table.origin == .implicit:
            table.origin = .header
            return table
        case .table:
            throw Conflict(reason: "the table '\(key)' is defined twice")
        case .tables:
            throw Conflict(reason: "'\(key)' is an array of tables, not a table")
        case .value(let value):
            throw Conflict(reason: "'\(key)' is already a value (\(value.typeName)), not a table")
        }
    }

    /// `[[... key]]`: a new table at the end of the array.
    func appendTable(_ key: String) throws(Conflict) -> TOMLTableBuilder {
        let table = TOMLTableBuilder(origin: .header)
        switch entries[key] {
        case nil:
            insert(key, .tables([table]))
        case .tables(let tables):
            entries[key] = .tables(tables + [table])
        case .table:
            throw Conflict(reason: "'\(key)' is a table, not an array of tables")
        case .value(let value):
            throw Conflict(reason: "'\(key)' is already a value (\(value.typeName)), not an array of tables")
        }
        return table
    }

    /// `key = value`: each key is set once.
    func setValue(_ key: String, _ value: TOMLValue) throws(Conflict) {
        guard entries[key] == nil else { throw Conflict(reason: "the key '\(key)' is defined twice") }
        insert(key, .value(value))
    }

    var table: TOMLTable {
        var result = TOMLTable()
        for key in keys {
            switch entries[key] {
            case .value(let value): result.set(key, to: value)
            case .table(let table): result.set(key, to: .table(table.table))
            case .tables(let tables): result.set(key, to: .array(tables.map { .table($0.table) }))
            case nil: break
            }
        }
        return result
    }
}
