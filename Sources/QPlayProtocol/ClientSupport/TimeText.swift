/// Seconds as people read them: `3:07`, `1:02:03`.
public enum TimeText {
    public static func format(_ seconds: Double) -> String {
        let total = seconds.isFinite ? Swift.max(0, Int(saturating: seconds)) : 0
        let hours = total / 3600
        let minutes = (total % 3600) / 60
        let secs = total % 60
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        if hours > 0 { return "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" }
        return "\(minutes):\(twoDigits(secs))"
    }
}
