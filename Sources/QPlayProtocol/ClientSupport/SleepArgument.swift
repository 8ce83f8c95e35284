/// `qplay sleep`'s argument: a duration (`30m`, `90s`, `1h`, `1h30m`, a bare number
/// of minutes), `end` (end of the current track) or `off`.
public enum SleepArgument {
    public static func parse(_ text: String) -> SleepRequest? {
        switch text.lowercased() {
        case "end", "end-of-track", "eot": return .endOfTrack
        case "off", "cancel": return .cancel
        default: return seconds(text).map(SleepRequest.after)
        }
    }

    /// `1h30m` → 5400; a bare number is minutes (what a sleep timer is set in).
    static func seconds(_ text: String) -> Double? {
        if let minutes = Double(text), minutes.isFinite, minutes > 0 { return minutes * 60 }
        var total = 0.0
        var number = ""
        var sawUnit = false
        for character in text.lowercased() {
            if character.isASCII, character.isNumber || character == "." {
                number.append(character)
                continue
            }
            guard let value = Double(number), value.isFinite else { return nil }
            switch character {
            case "h": total += value * 3600
            case "m": total += value * 60
            case "s": total += value
            default: return nil
            }
            number = ""
            sawUnit = true
        }
        guard number.isEmpty, sawUnit, total > 0 else { return nil }
        return total
    }

    /// The timer as `qplay sleep` prints it.
    public static func describe(_ sleep: SleepStatus?) -> String {
        guard let sleep else { return "no sleep timer" }
        if sleep.endOfTrack { return "sleep at the end of this track (\(TimeText.format(sleep.remaining)) left)" }
        if sleep.remaining == 0 { return "sleep timer fading out" }
        return "sleep in \(TimeText.format(sleep.remaining.rounded(.up)))"
    }
}

/// `qplay alarm --days`: `mon-fri`, `sat,sun`, `mon,wed-fri`, `daily`, `weekdays`,
/// `weekends`. A range wraps around the week (`fri-mon`).
public enum AlarmDays {
    public static func parse(_ text: String) -> [String]? {
        let names = AlarmRequest.dayNames
        switch text.lowercased() {
        case "daily", "every", "all": return names
        case "weekdays": return Array(names[0..<5])
        case "weekends", "weekend": return Array(names[5...])
        default: break
        }
        var days: [Int] = []
        for part in text.lowercased().split(separator: ",", omittingEmptySubsequences: false) {
            let ends = part.split(separator: "-", omittingEmptySubsequences: false).map { day(String($0)) }
            guard !ends.contains(nil) else { return nil }
            switch ends.count {
            // A day named twice (`mon,mon`, `mon-fri,fri`) is refused, as `alarm_add` does.
            case 1:
                guard !days.contains(ends[0]!) else { return nil }
                days.append(ends[0]!)
            case 2:
                var index = ends[0]!
                while true {
                    guard !days.contains(index) else { return nil }
                    days.append(index)
                    if index == ends[1]! { break }
                    index = (index + 1) % 7
                }
            default: return nil
            }
        }
        return names.indices.filter(days.contains).map { names[$0] }
    }

    /// `mon-fri`, `sat,sun`, `daily`, or `once`: how `qplay alarms` prints days.
    public static func describe(_ days: [String]) -> String {
        let names = AlarmRequest.dayNames
        let indices = days.compactMap(names.firstIndex(of:)).sorted()
        if indices.isEmpty { return "once" }
        if indices.count == 7 { return "daily" }
        var parts: [String] = []
        var start = indices[0]
        var previous = start
        for index in indices.dropFirst() + [99] {
            if index == previous + 1 {
                previous = index
                continue
            }
            parts.append(previous - start >= 2 ? "\(names[start])-\(names[previous])" : (start...previous).map { names[$0] }.joined(separator: ","))
            start = index
            previous = index
        }
        return parts.joined(separator: ",")
    }

    private static func day(_ text: String) -> Int? {
        let prefix = String(text.prefix(3))
        guard text.count >= 3, let index = AlarmRequest.dayNames.firstIndex(of: prefix),
            Self.fullNames[index].hasPrefix(text)
        else { return nil }
        return index
    }

    private static let fullNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
}
