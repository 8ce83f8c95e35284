/// Where `add`/`addid` put new songs: an absolute position, or relative to the current
/// song (`+N`: N after the song after it; `-N`: N before it).
public enum MPDPosition: Sendable, Equatable {
    case absolute(Int), afterCurrent(Int), beforeCurrent(Int)
}

/// `seekcur`'s time: seconds from the start, or (`+5`, `-5`) from where playback is.
public enum MPDTimeArgument: Sendable, Equatable {
    case absolute(Double), relative(Double)
}

/// MPD's argument parsers (protocol/ArgParser.cxx), with its `[2@0]` messages.
public enum MPDArgument {}

extension MPDArgument {
    /// A non-negative integer up to `max` (MPD's ParseCommandArgUnsigned).
    public static func unsigned(_ text: String, max: Int = Int(UInt32.max)) throws(MPDError) -> Int {
        let bytes = Array(text.utf8)
        guard let scan = CNumberScan.integer(bytes), scan.end == bytes.count else {
            throw MPDError(.argument, "Integer expected: \(text)")
        }
        guard scan.unsignedLong <= UInt64(max) else { throw MPDError(.argument, "Number too large: \(text)") }
        return Int(scan.unsignedLong)
    }

    /// A signed integer in `range` (MPD's ParseCommandArgInt; `play`, `volume`).
    public static func integer(
        _ text: String, in range: ClosedRange<Int> = Int(Int32.min)...Int(Int32.max)
    ) throws(MPDError) -> Int {
        let bytes = Array(text.utf8)
        guard let scan = CNumberScan.integer(bytes), scan.end == bytes.count else {
            throw MPDError(.argument, "Integer expected: \(text)")
        }
        guard range.contains(Int(scan.long)) else { throw MPDError(.argument, "Number too large: \(text)") }
        return Int(scan.long)
    }

    /// A decimal number (MPD's ParseCommandArgFloat, strtof): leading white space, a
    /// sign, a fraction and an exponent, "inf" and "nan" as C reads them.
    public static func number(_ text: String) throws(MPDError) -> Double {
        let bytes = text.utf8.drop { isCSpace($0) }
        guard let value = Double(String(decoding: bytes, as: UTF8.self)) else {
            throw MPDError(.argument, "Float expected: \(text)")
        }
        return value
    }

    /// A time in seconds that may not be negative (`seek`, `seekid`).
    public static func songTime(_ text: String) throws(MPDError) -> Double {
        let value = try number(text)
        guard !(value < 0) else { throw MPDError(.argument, "Negative value not allowed: \(text)") }
        return value
    }

    /// "0" or "1" (MPD's ParseCommandArgBool, which reads it with strtoul).
    public static func boolean(_ text: String) throws(MPDError) -> Bool {
        let bytes = Array(text.utf8)
        guard let scan = CNumberScan.integer(bytes), scan.end == bytes.count, scan.unsignedLong <= 1 else {
            throw MPDError(.argument, "Boolean (0/1) expected: \(text)")
        }
        return scan.unsignedLong == 1
    }

    /// `add`/`addid`'s position: "N", "+N" (after the current song) or "-N" (before
    /// it). The bounds depend on the queue: the caller checks them.
    public static func position(_ text: String) throws(MPDError) -> MPDPosition {
        switch text.utf8.first {
        case UInt8(ascii: "+"): return .afterCurrent(try unsigned(String(text.dropFirst())))
        case UInt8(ascii: "-"): return .beforeCurrent(try unsigned(String(text.dropFirst())))
        default: return .absolute(try unsigned(text))
        }
    }

    /// `seekcur`'s time: a leading sign makes it relative to where playback is.
    public static func time(_ text: String) throws(MPDError) -> MPDTimeArgument {
        let value = try number(text)
        switch text.utf8.first {
        case UInt8(ascii: "+"), UInt8(ascii: "-"): return .relative(value)
        default: return .absolute(value)
        }
    }
}
