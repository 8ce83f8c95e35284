/// A song filter: MPD's filter expressions and its older `TAG VALUE` pairs both parse
/// to this.
public indirect enum MPDFilter: Sendable, Equatable {
    case compare(MPDFilterSubject, MPDFilterOperator, String)
    case not(MPDFilter)
    case and([MPDFilter])
}

/// What a comparison looks at: a tag, any tag (`any`), the path relative to the music
/// directory (`file`), or the folder the song is under (`base`).
public enum MPDFilterSubject: Sendable, Equatable {
    case tag(MPDTag), any, file, base
}

public enum MPDFilterOperator: Sendable, Equatable {
    case equals, notEquals, contains, startsWith, regex, notRegex
}

extension MPDFilter {
    /// The filter written as an MPD filter expression (what MPD's ToExpression gives, but
    /// for nested ANDs), for logs and for checking the parser: it parses back to the same
    /// filter. An AND
    /// of fewer than two filters has no expression of its own: nil.
    public var expression: String? {
        switch self {
        case .compare(.base, let operation, let value):
            // MPD's base filter has no operator: it is always "under this folder".
            return operation == .equals ? "(base \(Self.quoted(value)))" : nil
        case .compare(let subject, let operation, let value):
            let name: String
            switch subject {
            case .tag(let tag): name = tag.rawValue
            case .any: name = "any"
            case .file: name = "file"
            case .base: name = "base"
            }
            return "(\(name) \(operation.symbol) \(Self.quoted(value)))"
        case .not(let inner):
            return inner.expression.map { "(!\($0))" }
        case .and(let items):
            guard items.count >= 2 else { return nil }
            // MPD's reader skips no blank after an AND's closing parenthesis, so an AND
            // nested as an item is followed by "AND" with no space before it: the
            // expression MPD itself writes there (" AND ") would not read back.
            var written = "("
            for (position, item) in items.enumerated() {
                guard let part = item.expression else { return nil }
                if position > 0 {
                    if case .and = items[position - 1] { written += "AND " } else { written += " AND " }
                }
                written += part
            }
            return written + ")"
        }
    }

    private static func quoted(_ value: String) -> String {
        var quoted = "\""
        for scalar in value.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { quoted.unicodeScalars.append("\\") }
            quoted.unicodeScalars.append(scalar)
        }
        return quoted + "\""
    }
}

extension MPDFilterOperator {
    /// As MPD's expressions write it.
    public var symbol: String {
        switch self {
        case .equals: "=="
        case .notEquals: "!="
        case .contains: "contains"
        case .startsWith: "starts_with"
        case .regex: "=~"
        case .notRegex: "!~"
        }
    }
}
