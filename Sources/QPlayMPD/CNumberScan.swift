/// What C's strtol/strtoul/strtod see in a string, which MPD's argument parsers
/// accept or reject by: leading white space, a sign, decimal digits, and where the
/// number ends. Written out rather than calling libc so the codec stays pure.
/// `integer` is nil where there are no digits (strtol's end pointer stays at the start).
struct CNumberScan {
    let negative: Bool
    /// The magnitude, saturated at UInt64.max when it overflows.
    let magnitude: UInt64
    /// Index of the first byte after the number.
    let end: Int
    let overflowed: Bool

    static func integer(_ bytes: [UInt8], from start: Int = 0) -> CNumberScan? {
        var index = start
        while index < bytes.count, isCSpace(bytes[index]) { index += 1 }
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        let digitsStart = index
        var magnitude: UInt64 = 0
        var overflowed = false
        while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 {
            let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(UInt64(bytes[index] - 0x30))
            if o1 || o2 { overflowed = true }
            magnitude = overflowed ? .max : plus
            index += 1
        }
        guard index > digitsStart else { return nil }
        return CNumberScan(negative: negative, magnitude: magnitude, end: index, overflowed: overflowed)
    }

    /// strtol on a 64-bit long: clamped to Int64's range.
    var long: Int64 {
        if negative {
            return magnitude > UInt64(Int64.max) ? .min : -Int64(magnitude)
        }
        return magnitude > UInt64(Int64.max) ? .max : Int64(magnitude)
    }

    /// strtoul: a minus sign negates in unsigned arithmetic ("-1" is ULONG_MAX).
    var unsignedLong: UInt64 {
        if overflowed { return .max }
        return negative ? 0 &- magnitude : magnitude
    }
}

/// C's isspace in the C locale.
func isCSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
