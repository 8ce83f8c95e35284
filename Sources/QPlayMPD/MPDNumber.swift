/// Numbers as MPD prints them.
public enum MPDNumber {
    /// `elapsed`, `duration`: seconds with three decimals (MPD's "%1.3f").
    public static func seconds(_ value: Double) -> String {
        guard value.isFinite else { return "0.000" }
        let thousandths = (abs(value) * 1000).rounded()
        guard thousandths < 9e15 else { return value < 0 ? "-9000000000000.000" : "9000000000000.000" }
        let whole = Int(thousandths) / 1000
        let fraction = Int(thousandths) % 1000
        let digits = String(fraction)
        let sign = value < 0 && thousandths > 0 ? "-" : ""
        return "\(sign)\(whole).\(String(repeating: "0", count: 3 - digits.count))\(digits)"
    }

    /// `Time` and the parts of status' `time`: whole seconds, rounded to the nearest.
    public static func roundedSeconds(_ value: Double) -> Int {
        guard value.isFinite else { return 0 }
        return Int(max(min(value.rounded(), 9e15), -9e15))
    }
}
