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
        try Self.rejectNUL(text, command: command, argument: "`\(key)`")
        return text
    }

    /// A NUL cannot be part of a path, a tag or a name; C APIs would cut the string short
    /// there (`a.mp3\0../x` would name `a.mp3`), so it is refused instead.
    static func rejectNUL(_ text: String, command: String, argument: String) throws(ProtocolError) {
        if text.utf8.contains(0) {
            throw .badRequest("\(command): \(argument) must not contain a NUL character (\\u0000)")
        }
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

    /// A whole number in `range`; a fraction, an exponent beyond it or a value outside it
    /// is refused with the range and the value as read.
    func integer(_ key: String, in range: ClosedRange<Int64> = Int64.min...Int64.max) throws(ProtocolError) -> Int64? {
        guard let value = values[key], value != .null else { return nil }
        let wanted = "a whole number from \(range.lowerBound) to \(range.upperBound)"
        guard let text = value.numberText else {
            throw .badRequest("\(command): `\(key)` must be \(wanted), got \(value.typeDescription)")
        }
        guard let number = value.integerValue, range.contains(number) else {
            throw .badRequest("\(command): `\(key)` must be \(wanted), got \(text)")
        }
        return number
    }

    /// A 0-based queue index. Any whole number from 0 up is read; whether an entry stands
    /// there is the queue's to say (`not_found`, with the queue's length).
    func index(_ key: String) throws(ProtocolError) -> Int? {
        guard let value = values[key], value != .null else { return nil }
        guard let number = value.integerValue, number >= 0 else {
            let got = value.numberText ?? value.typeDescription
            throw .badRequest("\(command): `\(key)` is a 0-based index, a whole number from 0 up; got \(got)")
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
