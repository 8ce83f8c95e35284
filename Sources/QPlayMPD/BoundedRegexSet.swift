/// A character class: ranges of scalars and named kinds (`\d`, `[:alpha:]`…), each
/// possibly negated, the whole possibly negated (`[^…]`).
struct BoundedRegexSet: Sendable {
    enum Kind: Sendable {
        case digit, word, space, alpha, alnum, upper, lower, punct, xdigit

        init?(posixName: String) {
            switch posixName {
            case "digit": self = .digit
            case "word": self = .word
            case "space": self = .space
            case "alpha": self = .alpha
            case "alnum": self = .alnum
            case "upper": self = .upper
            case "lower": self = .lower
            case "punct": self = .punct
            case "xdigit": self = .xdigit
            default: return nil
            }
        }

        func contains(_ scalar: Unicode.Scalar) -> Bool {
            let properties = scalar.properties
            switch self {
            case .digit: return properties.generalCategory == .decimalNumber
            case .word: return BoundedRegexSet.isWord(scalar)
            case .space: return properties.isWhitespace
            case .alpha: return properties.isAlphabetic
            case .alnum: return properties.isAlphabetic || properties.generalCategory == .decimalNumber
            case .upper: return properties.isUppercase
            case .lower: return properties.isLowercase
            case .punct:
                switch properties.generalCategory {
                case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                    .initialPunctuation, .finalPunctuation, .otherPunctuation:
                    return true
                default:
                    return false
                }
            case .xdigit: return properties.isASCIIHexDigit
            }
        }
    }

    var negated = false
    var ranges: [ClosedRange<UInt32>] = []
    var kinds: [(Kind, Bool)] = []

    init(negated: Bool = false, ranges: [ClosedRange<UInt32>] = [], kinds: [(Kind, Bool)] = []) {
        self.negated = negated
        self.ranges = ranges
        self.kinds = kinds
    }

    /// Whether the class takes `scalar`; `caseless` takes its other cases too.
    func contains(_ scalar: Unicode.Scalar, caseless: Bool) -> Bool {
        var found = takes(scalar)
        if !found, caseless {
            let lower = BoundedRegexSet.lowercased(scalar), upper = BoundedRegexSet.uppercased(scalar)
            found = (lower != scalar && takes(lower)) || (upper != scalar && takes(upper))
        }
        return found != negated
    }

    private func takes(_ scalar: Unicode.Scalar) -> Bool {
        for range in ranges where range.contains(scalar.value) { return true }
        for (kind, negated) in kinds where kind.contains(scalar) != negated { return true }
        return false
    }

    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
                || value == 0x5F
        }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .decimalNumber, .nonspacingMark, .spacingMark, .enclosingMark, .connectorPunctuation: return true
        default: return properties.isAlphabetic
        }
    }

    /// The scalar's lower case when it is one scalar (simple case folding), else itself.
    static func lowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            return (0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(UInt8(scalar.value + 0x20)) : scalar
        }
        let mapped = scalar.properties.lowercaseMapping.unicodeScalars
        return mapped.count == 1 ? mapped[mapped.startIndex] : scalar
    }

    static func uppercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            return (0x61...0x7A).contains(scalar.value) ? Unicode.Scalar(UInt8(scalar.value - 0x20)) : scalar
        }
        let mapped = scalar.properties.uppercaseMapping.unicodeScalars
        return mapped.count == 1 ? mapped[mapped.startIndex] : scalar
    }
}
