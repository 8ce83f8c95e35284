/// A regular expression read into a tree, the syntax MPD clients send with `=~`/`!~`
/// (PCRE's, as MPD compiles them): literals, `.`, classes `[…]` with ranges, negation and
/// `[:name:]`, `\d \w \s` and their negations, `^ $ \A \z \Z \b \B`, groups `( )`,
/// `(?: )`, `(?<name> )`, alternation, `* + ? {m} {m,} {m,n}` (lazy forms too), and
/// the flags `(?i)`/`(?-i)`. What a linear-time engine cannot do — backreferences,
/// lookaround, possessive quantifiers — is refused with the reason.
indirect enum BoundedRegexNode {
    case empty
    case scalar(Unicode.Scalar, caseless: Bool)
    case any
    case set(BoundedRegexSet, caseless: Bool)
    case assertion(BoundedRegexAssertion)
    case concat([BoundedRegexNode])
    case alternation([BoundedRegexNode])
    case repetition(BoundedRegexNode, min: Int, max: Int?)
}

enum BoundedRegexAssertion {
    /// `^`, `\A`: the start of the text (no multi-line mode, as MPD).
    case start
    /// `$`, `\Z`: the end, or before a newline that ends the text.
    case end
    /// `\z`: the very end.
    case absoluteEnd
    case wordBoundary, notWordBoundary
}

struct BoundedRegexParser {
    /// The largest count in `{m,n}`, as PCRE.
    static let countLimit = 65535

    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ pattern: String) {
        scalars = Array(pattern.unicodeScalars)
    }

    static func parse(_ pattern: String, caseless: Bool) throws(BoundedRegexError) -> BoundedRegexNode {
        var parser = BoundedRegexParser(pattern)
        var flags = caseless
        let node = try parser.alternation(caseless: &flags, depth: 0)
        if parser.position < parser.scalars.count { throw parser.error("unmatched closing parenthesis") }
        return node
    }

    private func error(_ reason: String) -> BoundedRegexError {
        BoundedRegexError(reason: reason, offset: position)
    }

    private var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    private mutating func alternation(caseless: inout Bool, depth: Int) throws(BoundedRegexError) -> BoundedRegexNode {
        // Nesting is bounded so that the tree's recursion cannot run out of stack.
        guard depth < 200 else { throw error("groups nested too deeply") }
        var branches = [try sequence(caseless: &caseless, depth: depth)]
        while current == "|" {
            position += 1
            branches.append(try sequence(caseless: &caseless, depth: depth))
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func sequence(caseless: inout Bool, depth: Int) throws(BoundedRegexError) -> BoundedRegexNode {
        var items: [BoundedRegexNode] = []
        while let scalar = current, scalar != "|", scalar != ")" {
            guard let atom = try atom(caseless: &caseless, depth: depth) else { continue }
            items.append(try quantified(atom))
        }
        return items.count == 1 ? items[0] : items.isEmpty ? .empty : .concat(items)
    }

    /// One item, or nil for a flag group such as `(?i)`, which matches nothing itself.
    private mutating func atom(caseless: inout Bool, depth: Int) throws(BoundedRegexError) -> BoundedRegexNode? {
        guard let scalar = current else { return .empty }
        switch scalar {
        case "(":
            position += 1
            var inner = caseless
            if current == "?" {
                position += 1
                switch current {
                case ":": position += 1
                case "=", "!": throw error("lookahead is not supported")
                case "<" where peek(1) == "=" || peek(1) == "!": throw error("lookbehind is not supported")
                case "<", "'", "P":
                    if current == "P" {
                        guard peek(1) == "<" else { throw error("backreferences are not supported") }
                        position += 1
                    }
                    let close: Unicode.Scalar = current == "'" ? "'" : ">"
                    position += 1
                    while let c = current, c != close {
                        guard c.properties.isAlphabetic || c.properties.numericType != nil || c == "_" else {
                            throw error("invalid group name")
                        }
                        position += 1
                    }
                    guard current == close else { throw error("unterminated group name") }
                    position += 1
                default:
                    // Flags: `(?i)` for the rest of the group, `(?i:…)` for its own.
                    var on = true
                    var value = caseless
                    while let c = current, c != ")", c != ":" {
                        switch c {
                        case "-": on = false
                        case "i": value = on
                        case "s": break  // `.` matches a newline already, as MPD's DOTALL
                        default: throw error("unsupported group or flag")
                        }
                        position += 1
                    }
                    guard let end = current else { throw error("missing closing parenthesis") }
                    position += 1
                    if end == ")" {
                        caseless = value
                        return nil
                    }
                    inner = value
                }
            }
            let node = try alternation(caseless: &inner, depth: depth + 1)
            guard current == ")" else { throw error("missing closing parenthesis") }
            position += 1
            return node
        case "[":
            position += 1
            return .set(try set(), caseless: caseless)
        case ".":
            position += 1
            return .any
        case "^":
            position += 1
            return .assertion(.start)
        case "$":
            position += 1
            return .assertion(.end)
        case "*", "+", "?":
            throw error("quantifier does not follow a repeatable item")
        case "\\":
            position += 1
            return try escape(caseless: caseless)
        default:
            position += 1
            return .scalar(scalar, caseless: caseless)
        }
    }

    private mutating func escape(caseless: Bool) throws(BoundedRegexError) -> BoundedRegexNode {
        guard let scalar = current else { throw error("\\ at end of pattern") }
        position += 1
        switch scalar {
        case "A": return .assertion(.start)
        case "Z": return .assertion(.end)
        case "z": return .assertion(.absoluteEnd)
        case "b": return .assertion(.wordBoundary)
        case "B": return .assertion(.notWordBoundary)
        default: break
        }
        position -= 1
        switch try classEscape() {
        case .scalar(let literal): return .scalar(literal, caseless: caseless)
        case .kind(let kind, let negated):
            return .set(BoundedRegexSet(kinds: [(kind, negated)]), caseless: false)
        }
    }

    private enum EscapeValue {
        case scalar(Unicode.Scalar)
        case kind(BoundedRegexSet.Kind, negated: Bool)
    }

    /// An escape that stands for characters, in or out of a class; `position` is after
    /// the backslash.
    private mutating func classEscape() throws(BoundedRegexError) -> EscapeValue {
        guard let scalar = current else { throw error("\\ at end of pattern") }
        position += 1
        switch scalar {
        case "d": return .kind(.digit, negated: false)
        case "D": return .kind(.digit, negated: true)
        case "w": return .kind(.word, negated: false)
        case "W": return .kind(.word, negated: true)
        case "s": return .kind(.space, negated: false)
        case "S": return .kind(.space, negated: true)
        case "t": return .scalar("\t")
        case "n": return .scalar("\n")
        case "r": return .scalar("\r")
        case "f": return .scalar("\u{0C}")
        case "v": return .scalar("\u{0B}")
        case "e": return .scalar("\u{1B}")
        case "a": return .scalar("\u{07}")
        case "0": return .scalar("\u{00}")
        case "x": return .scalar(try hex())
        case "1"..."9", "g", "k": throw error("backreferences are not supported")
        case "p", "P": throw error("Unicode properties are not supported")
        default:
            if scalar.isASCII, scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                throw error("unknown escape \\\(scalar)")
            }
            return .scalar(scalar)
        }
    }

    /// `\xHH` or `\x{H…}`, after the `x`.
    private mutating func hex() throws(BoundedRegexError) -> Unicode.Scalar {
        var digits = ""
        if current == "{" {
            position += 1
            while let c = current, c != "}" {
                digits.unicodeScalars.append(c)
                position += 1
            }
            guard current == "}" else { throw error("unterminated \\x{") }
            position += 1
        } else {
            while digits.count < 2, let c = current, c.properties.isASCIIHexDigit {
                digits.unicodeScalars.append(c)
                position += 1
            }
        }
        guard let value = UInt32(digits.isEmpty ? "0" : digits, radix: 16), let scalar = Unicode.Scalar(value) else {
            throw error("invalid character code")
        }
        return scalar
    }

    /// A class, after its `[`.
    private mutating func set() throws(BoundedRegexError) -> BoundedRegexSet {
        var result = BoundedRegexSet()
        if current == "^" {
            result.negated = true
            position += 1
        }
        var first = true
        while true {
            guard let scalar = current else { throw error("missing terminating ] for character class") }
            if scalar == "]", !first {
                position += 1
                return result
            }
            first = false
            if scalar == "[", peek(1) == ":" {
                result.kinds.append(try posixClass())
                continue
            }
            let low: Unicode.Scalar
            position += 1
            if scalar == "\\" {
                switch try classEscape() {
                case .kind(let kind, let negated):
                    result.kinds.append((kind, negated))
                    continue
                case .scalar(let literal): low = literal
                }
            } else {
                low = scalar
            }
            guard current == "-", let next = peek(1), next != "]" else {
                result.ranges.append(low.value...low.value)
                continue
            }
            position += 1
            var high = next
            position += 1
            if next == "\\" {
                guard case .scalar(let literal) = try classEscape() else { throw error("invalid range in character class") }
                high = literal
            } else if next == "[", current == ":" {
                throw error("invalid range in character class")
            }
            guard low.value <= high.value else { throw error("range out of order in character class") }
            result.ranges.append(low.value...high.value)
        }
    }

    /// `[:name:]` or `[:^name:]` inside a class.
    private mutating func posixClass() throws(BoundedRegexError) -> (BoundedRegexSet.Kind, Bool) {
        position += 2
        var negated = false
        if current == "^" {
            negated = true
            position += 1
        }
        var name = ""
        while let c = current, c != ":" {
            name.unicodeScalars.append(c)
            position += 1
        }
        guard current == ":", peek(1) == "]", let kind = BoundedRegexSet.Kind(posixName: name) else {
            throw error("unknown POSIX class name")
        }
        position += 2
        return (kind, negated)
    }

    private mutating func quantified(_ atom: BoundedRegexNode) throws(BoundedRegexError) -> BoundedRegexNode {
        var node = atom
        var quantifiers = 0
        while let scalar = current {
            let bounds: (Int, Int?)
            switch scalar {
            case "*": bounds = (0, nil)
            case "+": bounds = (1, nil)
            case "?": bounds = (0, 1)
            case "{":
                guard let counted = try counts() else { return node }
                bounds = counted
            default: return node
            }
            if scalar != "{" { position += 1 }
            quantifiers += 1
            guard quantifiers == 1 else { throw error("quantifier does not follow a repeatable item") }
            // A lazy quantifier finds a match where the greedy one does: only whether
            // there is one counts here. A possessive one gives some up: refused.
            if current == "?" {
                position += 1
            } else if current == "+" {
                throw error("possessive quantifiers are not supported")
            }
            node = .repetition(node, min: bounds.0, max: bounds.1)
        }
        return node
    }

    /// `{m}`, `{m,}`, `{m,n}` at `position`, read past; nil (a literal `{`) for anything else.
    private mutating func counts() throws(BoundedRegexError) -> (Int, Int?)? {
        var index = position + 1
        func number() -> Int? {
            var value: Int?
            while index < scalars.count, let digit = scalars[index].properties.numericType == .decimal && scalars[index].isASCII
                ? Int(scalars[index].value) - 48 : nil
            {
                value = min((value ?? 0) * 10 + digit, Int(Int32.max))
                index += 1
            }
            return value
        }
        guard let low = number() else { return nil }
        var high: Int? = low
        if index < scalars.count, scalars[index] == "," {
            index += 1
            high = number()
        }
        guard index < scalars.count, scalars[index] == "}" else { return nil }
        guard low <= Self.countLimit, (high ?? 0) <= Self.countLimit else { throw error("number too big in {} quantifier") }
        if let high, high < low { throw error("numbers out of order in {} quantifier") }
        position = index + 1
        return (low, high)
    }
}
