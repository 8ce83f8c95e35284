/// `qplay seek`'s argument: `+SECONDS`, `-SECONDS`, `SECONDS`, `M:SS` or `H:MM:SS`
/// (a sign makes any of them relative).
public enum SeekArgument {
    public static func parse(_ text: String) -> SeekTarget? {
        var body = Substring(text)
        var sign: Double?
        if body.first == "+" {
            sign = 1
            body = body.dropFirst()
        } else if body.first == "-" {
            sign = -1
            body = body.dropFirst()
        }
        guard let seconds = clockSeconds(body) else { return nil }
        if let sign { return .delta(sign * seconds) }
        return .position(seconds)
    }

    /// `90`, `12.5`, `1:30`, `1:02:03`; minutes and seconds after a colon are below 60.
    static func clockSeconds(_ text: Substring) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        guard let last = Double(parts.last!), last >= 0, last.isFinite,
            parts.last!.allSatisfy({ $0.isNumber || $0 == "." })
        else { return nil }
        if parts.count == 1 { return last }
        guard last < 60 else { return nil }
        var total = last
        var multiplier = 60.0
        for (offset, part) in parts.dropLast().reversed().enumerated() {
            guard !part.isEmpty, part.allSatisfy(\.isNumber), let value = Int(part) else { return nil }
            if offset == 0 && parts.count == 3 && value >= 60 { return nil }
            total += Double(value) * multiplier
            multiplier *= 60
        }
        return total
    }
}

/// `qplay vol`'s argument: `N` sets, `+N` / `-N` change.
public enum VolumeArgument {
    public static func parse(_ text: String) -> VolumeChange? {
        guard let first = text.first else { return nil }
        let signed = first == "+" || first == "-"
        let digits = signed ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy(\.isNumber), let value = Int(digits), value <= 100 else {
            return nil
        }
        if signed { return .delta(first == "-" ? -value : value) }
        return .set(value)
    }
}
