/// Numbers as MPD prints them.
public enum MPDNumber {
    /// `elapsed`, `duration`: seconds with three decimals, as MPD's printf("%1.3f")
    /// gives them — rounded from the double's exact binary value, so 1.0005 (really
    /// 1.000499…) is "1.000", not the "1.001" that multiplying by 1000 first would give.
    public static func seconds(_ value: Double) -> String {
        guard value.isFinite else { return "0.000" }
        let limit = 9e12
        let thousandths = exactThousandths(min(abs(value), limit))
        let whole = thousandths / 1000
        let digits = String(thousandths % 1000)
        let sign = value < 0 && thousandths > 0 ? "-" : ""
        return "\(sign)\(whole).\(String(repeating: "0", count: 3 - digits.count))\(digits)"
    }

    /// `Time` and the parts of status' `time`: whole seconds, rounded to the nearest.
    public static func roundedSeconds(_ value: Double) -> Int {
        guard value.isFinite else { return 0 }
        return Int(max(min(value.rounded(), 9e15), -9e15))
    }

    /// `magnitude` × 1000 rounded half to even, computed on the exact significand and
    /// exponent (`magnitude` finite, 0 … 9e12).
    static func exactThousandths(_ magnitude: Double) -> UInt64 {
        let subnormal = magnitude.exponentBitPattern == 0
        let significand = magnitude.significandBitPattern | (subnormal ? 0 : 1 << 52)
        let exponent = subnormal ? -1074 : Int(magnitude.exponentBitPattern) - 1075
        // Below 2^53 × 1000 < 2^63: no overflow.
        let product = significand * 1000
        if exponent >= 0 { return product << UInt64(exponent) }
        let shift = -exponent
        guard shift < 64 else { return 0 }  // below a half: product < 2^63 ≤ 2^(shift-1)
        var quotient = product >> UInt64(shift)
        let remainder = product & ((1 << UInt64(shift)) - 1)
        let half: UInt64 = 1 << UInt64(shift - 1)
        if remainder > half || (remainder == half && quotient & 1 == 1) { quotient += 1 }
        return quotient
    }
}
