/// Reads one command's `args` object, turning every wrong or missing value into a
/// `bad_request` that names the command and the argument.
struct ArgumentReader {
    let command: String
    private let values: [String: JSONValue]

    init(command: String, args: JSONValue?) throws(ProtocolError) {
        self.command = command
        switch args {
        case nil, .null?: values = [:]
        case .object(let object)?: values = object
        case let other?:
            throw .badRequest("\(command): `args` must be an object, got \(other.typeDescription)")
        }
    }

    func has(_ key: String) -> Bool { values[key] != nil && values[key] != .null }

    /// Rejects arguments the command does not take, so typos do not pass silently.
    func allowOnly(_ keys: [String]) throws(ProtocolError) {
        for key in values.keys.sorted() where !keys.contains(key) {
            let known = keys.isEmpty ? "takes no arguments" : "takes " + keys.map { "`\($0)`" }.joined(separator: ", ")
            throw .badRequest("\(command): unknown argument `\(key)` (\(command) \(known))")
        }
    }

    /// Exactly one of `keys` must be given.
    func oneOf(_ keys: [String]) throws(ProtocolError) -> String {
        let given = keys.filter(has)
        guard given.count == 1 else {
            let names = keys.map { "`\($0)`" }.joined(separator: " or ")
            throw .badRequest(
                given.isEmpty ? "\(command): needs \(names)" : "\(command): give only one of \(names)")
        }
        return given[0]
    }

    func string(_ key: String) throws(ProtocolError) -> String? {
        guard let value = values[key], value != .null else { return nil }
        guard case .string(let text) = value else {
            throw .badRequest("\(command): `\(key)` must be a string, got \(value.typeDescription)")
        }
        return text
    }

    func bool(_ key: String) throws(ProtocolError) -> Bool? {
        guard let value = values[key], value != .null else { return nil }
        guard case .bool(let flag) = value else {
            throw .badRequest("\(command): `\(key)` must be true or false, got \(value.typeDescription)")
        }
        return flag
    }

    func number(_ key: String) throws(ProtocolError) -> Double? {
        guard let value = values[key], value != .null else { return nil }
        guard let number = value.numberValue, number.isFinite else {
            throw .badRequest("\(command): `\(key)` must be a number, got \(value.typeDescription)")
        }
        return number
    }

    func integer(_ key: String, in range: ClosedRange<Int64>? = nil) throws(ProtocolError) -> Int64? {
        guard let value = values[key], value != .null else { return nil }
        guard let number = value.integerValue else {
            throw .badRequest("\(command): `\(key)` must be a whole number, got \(value.typeDescription)")
        }
        if let range, !range.contains(number) {
            throw .badRequest(
                "\(command): `\(key)` must be between \(range.lowerBound) and \(range.upperBound), got \(number)")
        }
        return number
    }

    func index(_ key: String) throws(ProtocolError) -> Int? {
        guard let number = try integer(key) else { return nil }
        guard number >= 0, number <= Int64(Int32.max) else {
            throw .badRequest("\(command): `\(key)` is a 0-based index and must be 0 or more, got \(number)")
        }
        return Int(number)
    }

    func list(_ key: String) throws(ProtocolError) -> [JSONValue]? {
        guard let value = values[key], value != .null else { return nil }
        guard case .array(let items) = value else {
            throw .badRequest("\(command): `\(key)` must be a list, got \(value.typeDescription)")
        }
        return items
    }

    func predicates(_ key: String) throws(ProtocolError) -> [Predicate]? {
        guard let items = try list(key) else { return nil }
        var predicates: [Predicate] = []
        for item in items { predicates.append(try Predicate.parse(item, command: command)) }
        return predicates
    }
}
