/// An alarm's TIME as `qplay alarm` checks it before asking the daemon: `HH:MM` or
/// `HH:MM:SS`, 24-hour, the rule the daemon's schedule applies, so `25:00` is a usage
/// error (exit 2) like any other bad argument, not a refusal.
public enum AlarmTime {
    public static func isValid(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
            parts.allSatisfy({ $0.count == 2 && $0.utf8.allSatisfy { (48...57).contains($0) } })
        else { return false }
        let limits = [23, 59, 59]
        return parts.enumerated().allSatisfy { Int($0.element)! <= limits[$0.offset] }
    }
}
